// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension ImageEncoders {
    /// libwebp's effort (`method`, 0 fastest ... 6 smallest): 4 is cwebp's and sharp's default.
    static let webpMethod: Int32 = 4

    /// WebP: lossy at `options.quality` with alpha kept (an alpha plane only when some pixel is
    /// not opaque), or lossless with `options.lossless`. Untagged (sRGB) unless `profile` is
    /// given, which goes into an ICCP chunk.
    static func encodeWebP(
        _ image: PixelBuffer, options: EncodeOptions, path: String, profile: ColorProfile? = nil
    ) throws(EncodeError) -> [UInt8] {
        let icc = profile?.data ?? []
        let quality = Int32(options.lossless ? 75 : options.quality)
        return try runEncoder(path: path) { out, size, err in
            image.pixels.withUnsafeBufferPointer { px in
                icc.withUnsafeBufferPointer { iccBytes in
                    tk_webp_encode(
                        px.baseAddress, UInt32(image.width), UInt32(image.height), quality, options.lossless ? 1 : 0,
                        webpMethod, icc.isEmpty ? nil : iccBytes.baseAddress, icc.count, out, size, err)
                }
            }
        }
    }

    /// AVIF through libheif and aom at `options.quality` and `options.avifSpeed`, 4:2:0, one
    /// aom thread (a batch runs images in parallel). Alpha is written only when some pixel is
    /// not opaque. Colour: an nclx box saying sRGB, or `profile` as an ICC `colr` box.
    static func encodeAVIF(
        _ image: PixelBuffer, options: EncodeOptions, path: String, profile: ColorProfile? = nil
    ) throws(EncodeError) -> [UInt8] {
        let icc = profile?.data ?? []
        let transparent = image.hasTransparency
        let pixels = transparent ? image.pixels : AlphaFlattening.droppingAlpha(image)
        return try runEncoder(path: path) { out, size, err in
            pixels.withUnsafeBufferPointer { px in
                icc.withUnsafeBufferPointer { iccBytes in
                    tk_heif_encode_avif(
                        px.baseAddress, UInt32(image.width), UInt32(image.height), transparent ? 4 : 3,
                        Int32(options.quality), Int32(options.avifSpeed), 1,
                        icc.isEmpty ? nil : iccBytes.baseAddress, icc.count, out, size, err)
                }
            }
        }
    }
}
