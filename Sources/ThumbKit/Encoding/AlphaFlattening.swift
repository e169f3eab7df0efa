/// Turns RGBA buffers into the 3-channel rows the encoders want.
enum AlphaFlattening {
    /// Composites every pixel over an opaque `background` ("over" with straight alpha) and
    /// returns packed RGB: out = (c·a + bg·(255 − a)) / 255, rounded to nearest.
    /// The background's own alpha is ignored: JPEG has no alpha, so the backdrop is opaque.
    static func flattenedRGB(_ image: PixelBuffer, onto background: RGBA) -> [UInt8] {
        let src = image.pixels
        var rgb = [UInt8](repeating: 0, count: image.pixelCount * 3)
        let bg = [UInt32(background.r), UInt32(background.g), UInt32(background.b)]
        var s = 0
        var d = 0
        while s < src.count {
            let a = UInt32(src[s + 3])
            let ia = 255 - a
            // x ≤ 255·255, and (x + 127) / 255 rounds x/255 to nearest (255 is odd: no ties).
            rgb[d] = UInt8((UInt32(src[s]) * a + bg[0] * ia + 127) / 255)
            rgb[d + 1] = UInt8((UInt32(src[s + 1]) * a + bg[1] * ia + 127) / 255)
            rgb[d + 2] = UInt8((UInt32(src[s + 2]) * a + bg[2] * ia + 127) / 255)
            s += 4
            d += 3
        }
        return rgb
    }

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
