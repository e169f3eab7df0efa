// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// Small images made on the fly for tests that need real, decodable files (the watch folder
/// validates by decoding). Distinct seeds give distinct pixels, hence distinct bytes and hashes.
public enum GeneratedImages {
    /// A `width`×`height` gradient whose colours depend on `seed`.
    public static func pixels(width: Int, height: Int, seed: Int) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, fill: .white)
        let s = UInt8(truncatingIfNeeded: seed &* 37)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                buffer.pixels[i] = UInt8(truncatingIfNeeded: x * 255 / max(1, width - 1)) &+ s
                buffer.pixels[i + 1] = UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1)) &+ s &* 3
                buffer.pixels[i + 2] = UInt8(truncatingIfNeeded: (x ^ y) &* 7) &+ UInt8(truncatingIfNeeded: seed)
            }
        }
        return buffer
    }

    /// The gradient as a JPEG (quality 90).
    public static func jpeg(width: Int = 64, height: Int = 48, seed: Int) -> [UInt8] {
        encode(pixels(width: width, height: height, seed: seed), format: .jpeg)
    }

    /// The gradient as a PNG.
    public static func png(width: Int = 64, height: Int = 48, seed: Int) -> [UInt8] {
        encode(pixels(width: width, height: height, seed: seed), format: .png)
    }

    private static func encode(_ image: PixelBuffer, format: ImageFormat) -> [UInt8] {
        do {
            return try ImageEncoders.encode(image, options: EncodeOptions(format: format, quality: 90))
        } catch {
            preconditionFailure("Encoding a generated test image failed: \(error)")
        }
    }
}
