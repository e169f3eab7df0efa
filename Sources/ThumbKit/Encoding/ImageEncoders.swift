import CThumbKit

/// Namespace for the encoders.
public enum ImageEncoders {
    /// Encodes `image` as `options.format`. JPEG flattens any transparency onto
    /// `options.background`; PNG keeps alpha (and writes RGB when the image is opaque).
    public static func encode(_ image: PixelBuffer, options: EncodeOptions, path: String = "") throws(EncodeError) -> [UInt8] {
        switch options.format {
        case .jpeg: return try encodeJPEG(image, options: options, path: path)
        case .png: return try encodePNG(image, options: options, path: path)
        }
    }

    /// Baseline or progressive JPEG, no metadata. Pixels go to libjpeg as RGBX straight from the
    /// buffer, transparent ones first flattened onto the background.
    static func encodeJPEG(_ image: PixelBuffer, options: EncodeOptions, path: String) throws(EncodeError) -> [UInt8] {
        let image = image.flattened(onto: options.background)
        return try runEncoder(path: path) { out, size, err in
            image.pixels.withUnsafeBufferPointer { px in
                jpegEncode(px.baseAddress, image, channels: 4, options: options, out, size, err)
            }
        }
    }

    /// 8-bit PNG at `options.pngCompressionLevel`: RGBA when any pixel is not opaque, else RGB.
    static func encodePNG(_ image: PixelBuffer, options: EncodeOptions, path: String) throws(EncodeError) -> [UInt8] {
        let level = Int32(options.pngCompressionLevel)
        let width = UInt32(image.width)
        let height = UInt32(image.height)
        if image.hasTransparency {
            return try runEncoder(path: path) { out, size, err in
                image.pixels.withUnsafeBufferPointer { px in
                    tk_png_encode(px.baseAddress, width, height, 4, level, out, size, err)
                }
            }
        }
        let rgb = AlphaFlattening.droppingAlpha(image)
        return try runEncoder(path: path) { out, size, err in
            rgb.withUnsafeBufferPointer { px in
                tk_png_encode(px.baseAddress, width, height, 3, level, out, size, err)
            }
        }
    }

    private static func jpegEncode(
        _ pixels: UnsafePointer<UInt8>?, _ image: PixelBuffer, channels: Int32, options: EncodeOptions,
        _ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, _ size: UnsafeMutablePointer<Int>,
        _ err: UnsafeMutablePointer<CChar>
    ) -> Int32 {
        tk_jpeg_encode(
            pixels, UInt32(image.width), UInt32(image.height), channels, Int32(options.quality),
            options.subsampling == .yuv444 ? 1 : 0, options.progressive ? 1 : 0,
            options.optimizeHuffman ? 1 : 0, out, size, err)
    }

    /// Calls a shim encoder, copies its malloc'd output into an array and frees it.
    private static func runEncoder(
        path: String,
        _ call: (
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
            UnsafeMutablePointer<CChar>
        ) -> Int32
    ) throws(EncodeError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var err = CodecMessage.buffer()
        let rc = err.withUnsafeMutableBufferPointer { e in call(&out, &size, e.baseAddress!) }
        defer { tk_free(out) }
        guard rc == 0, let out else {
            let reason = CodecMessage.text(err)
            throw .codec(path: path, reason: reason.isEmpty ? "encoder failed without a message" : reason)
        }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }
}
