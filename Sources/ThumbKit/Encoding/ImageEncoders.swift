// SPDX-License-Identifier: Apache-2.0
import CThumbKit

/// Namespace for the encoders.
public enum ImageEncoders {
    /// Encodes `image` as `options.format`. JPEG flattens any transparency onto
    /// `options.background`; PNG keeps alpha (and writes RGB when the image is opaque).
    ///
    /// Colour: with `profile` nil the pixels are sRGB, which a PNG states with a 13-byte `sRGB`
    /// chunk and a JPEG by carrying no profile (untagged JPEGs are sRGB everywhere). With a
    /// profile (`ColorOptions.keepProfile`) it is embedded: a PNG iCCP chunk, JPEG APP2 markers.
    public static func encode(
        _ image: PixelBuffer, options: EncodeOptions, path: String = "", profile: ColorProfile? = nil
    ) throws(EncodeError) -> [UInt8] {
        switch options.format {
        case .jpeg: return try encodeJPEG(image, options: options, path: path, profile: profile)
        case .png: return try encodePNG(image, options: options, path: path, profile: profile)
        case .webp: return try encodeWebP(image, options: options, path: path, profile: profile)
        case .avif: return try encodeAVIF(image, options: options, path: path, profile: profile)
        case .heic: throw .codec(path: path, reason: "HEIC output is not supported (write AVIF or WebP)")
        }
    }

    /// Baseline or progressive JPEG; no metadata but an embedded profile. Pixels go to libjpeg
    /// as RGBX straight from the buffer, transparent ones first flattened onto the background.
    static func encodeJPEG(
        _ image: PixelBuffer, options: EncodeOptions, path: String, profile: ColorProfile? = nil
    ) throws(EncodeError) -> [UInt8] {
        let image = image.flattened(onto: options.background)
        let icc = profile?.data ?? []
        return try runEncoder(path: path) { out, size, err in
            image.pixels.withUnsafeBufferPointer { px in
                icc.withUnsafeBufferPointer { iccBytes in
                    tk_jpeg_encode_color(
                        px.baseAddress, UInt32(image.width), UInt32(image.height), 4, 0, Int32(options.quality),
                        options.subsampling == .yuv444 ? 1 : 0, options.progressive ? 1 : 0,
                        options.optimizeHuffman ? 1 : 0, icc.isEmpty ? nil : iccBytes.baseAddress, icc.count,
                        out, size, err)
                }
            }
        }
    }

    /// 8-bit PNG compressed as `options.pngCompression` says: RGBA when any pixel is not opaque,
    /// else RGB; an `sRGB` chunk, or an iCCP chunk holding `profile`.
    static func encodePNG(
        _ image: PixelBuffer, options: EncodeOptions, path: String, profile: ColorProfile? = nil
    ) throws(EncodeError) -> [UInt8] {
        let level = Int32(options.pngCompression.level)
        let fast: Int32 = options.pngCompression.isFast ? 1 : 0
        let width = UInt32(image.width)
        let height = UInt32(image.height)
        var color = tk_png_color()
        if profile == nil {
            color.has_srgb = 1
            color.srgb_intent = 0  // perceptual, as libpng's own writers tag sRGB
        }
        let icc = profile?.data ?? []
        let transparent = image.hasTransparency
        let channels: Int32 = transparent ? 4 : 3
        let pixels = transparent ? image.pixels : AlphaFlattening.droppingAlpha(image)
        return try runEncoder(path: path) { out, size, err in
            pixels.withUnsafeBufferPointer { px in
                icc.withUnsafeBufferPointer { iccBytes in
                    tk_png_encode_text(
                        px.baseAddress, width, height, channels, level, fast, &color,
                        icc.isEmpty ? nil : iccBytes.baseAddress, icc.count, nil, 0, out, size, err)
                }
            }
        }
    }

    /// Calls a shim encoder, copies its malloc'd output into an array and frees it.
    static func runEncoder(
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
