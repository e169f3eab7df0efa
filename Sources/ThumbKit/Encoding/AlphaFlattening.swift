// SPDX-License-Identifier: Apache-2.0
/// Turns RGBA buffers into the 3-channel rows the PNG encoder wants for opaque images.
enum AlphaFlattening {
    /// Packed RGB with the alpha bytes dropped (for images known to be opaque).
    static func droppingAlpha(_ image: PixelBuffer) -> [UInt8] {
        let src = image.pixels
        var rgb = [UInt8](repeating: 0, count: image.pixelCount * 3)
        var s = 0
        var d = 0
        while s < src.count {
            rgb[d] = src[s]
            rgb[d + 1] = src[s + 1]
            rgb[d + 2] = src[s + 2]
            s += 4
            d += 3
        }
        return rgb
    }
}
