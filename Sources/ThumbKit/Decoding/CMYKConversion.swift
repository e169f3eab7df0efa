// SPDX-License-Identifier: Apache-2.0
/// Naive CMYK → RGB for JPEGs that libjpeg hands back as CMYK (CMYK and YCCK files): the
/// built-in fallback of colour management for files without a usable CMYK profile
/// (`ColorManagement`), and the conversion Chrome and Firefox use for untagged CMYK.
///
/// R = (255 − C)(255 − K) / 255, and so on. Files with an Adobe APP14 marker (almost all CMYK
/// JPEGs, written by Photoshop) store every channel inverted, so there R = C′ · K′ / 255 on the
/// stored values.
enum CMYKConversion {
    /// Rewrites 4-byte CMYK pixels in place as RGBA with alpha 255.
    static func convertToRGBA(_ pixels: inout [UInt8], inverted: Bool) {
        precondition(pixels.count % 4 == 0, "CMYK data must be 4 bytes a pixel.")
        var i = 0
        while i < pixels.count {
            var c = UInt32(pixels[i])
            var m = UInt32(pixels[i + 1])
            var y = UInt32(pixels[i + 2])
            var k = UInt32(pixels[i + 3])
            if !inverted {
                c = 255 - c
                m = 255 - m
                y = 255 - y
                k = 255 - k
            }
            // Exact rounding of x/255 for x ≤ 255·255: (x + 127) / 255.
            pixels[i] = UInt8((c * k + 127) / 255)
            pixels[i + 1] = UInt8((m * k + 127) / 255)
            pixels[i + 2] = UInt8((y * k + 127) / 255)
            pixels[i + 3] = 255
            i += 4
        }
    }
}
