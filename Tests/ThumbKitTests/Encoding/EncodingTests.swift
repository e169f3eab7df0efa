// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKit

/// Encoders: PNG round trips exactly, JPEG round trips closely, transparency is flattened onto
/// the background for JPEG, and the options reach the file.
struct EncodingTests {
    /// 23×17 (odd on purpose) with colour gradients and, if asked, an alpha ramp.
    static func sample(alpha: Bool) -> PixelBuffer {
        var image = PixelBuffer(width: 23, height: 17)
        for y in 0..<17 {
            for x in 0..<23 {
                let a = alpha ? UInt8((x * 17 + y) % 256) : 255
                image[x, y] = RGBA(UInt8(x * 11), UInt8(y * 15), UInt8((x + y) * 6), a)
            }
        }
        return image
    }

    /// Marker bytes of a JPEG's segments before its first scan.
    static func markers(_ jpeg: [UInt8]) -> [UInt8] {
        var found: [UInt8] = []
        var i = 2
        while i + 3 < jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1]
            found.append(marker)
            if marker == 0xDA { break }
            i += 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
        }
        return found
    }

    @Test(arguments: [true, false])
    func pngRoundTripIsExact(_ alpha: Bool) throws {
        let image = Self.sample(alpha: alpha)
        let png = try ImageEncoders.encode(image, options: EncodeOptions(format: .png))
        #expect(ImageFormat.sniff(png) == .png)
        // IHDR colour type (byte 25): 6 RGBA when transparent, 2 RGB when opaque.
        #expect(png[25] == (alpha ? 6 : 2))
        let decoded = try ImageDecoders.decode(png, path: "rt.png")
        #expect(decoded.buffer == image)
        #expect(decoded.header.hasAlpha == alpha)
    }

    @Test func pngCompressionLevelChangesTheSize() throws {
        let image = Self.sample(alpha: true)
        let stored = try ImageEncoders.encode(
            image, options: EncodeOptions(format: .png, pngCompression: .standard(level: 0)))
        let best = try ImageEncoders.encode(
            image, options: EncodeOptions(format: .png, pngCompression: .standard(level: 9)))
        #expect(stored.count > image.pixels.count)  // level 0 stores the rows uncompressed
        #expect(best.count < stored.count)
        #expect(try ImageDecoders.decode(stored, path: "s").buffer == ImageDecoders.decode(best, path: "b").buffer)
    }

    @Test(arguments: EncodeOptions.Subsampling.allCases, [false, true])
    func jpegRoundTripAtQuality95IsClose(_ subsampling: EncodeOptions.Subsampling, _ progressive: Bool) throws {
        let image = Self.sample(alpha: false)
        let options = EncodeOptions(quality: 95, subsampling: subsampling, progressive: progressive)
        let jpeg = try ImageEncoders.encode(image, options: options)
        let decoded = try ImageDecoders.decode(jpeg, path: "rt.jpg")
        #expect(decoded.buffer.width == 23 && decoded.buffer.height == 17)
        var total = 0
        var worst = 0
        for (a, b) in zip(image.pixels, decoded.buffer.pixels) {
            let d = abs(Int(a) - Int(b))
            total += d
            worst = max(worst, d)
        }
        let mean = Double(total) / Double(image.pixels.count)
        #expect(mean < (subsampling == .yuv444 ? 1.5 : 3))
        #expect(worst < (subsampling == .yuv444 ? 12 : 40))
        #expect(decoded.header.isProgressive == progressive)
    }

    @Test func jpegOptionsReachTheFile() throws {
        let image = Self.sample(alpha: false)
        let baseline = try ImageEncoders.encode(image, options: EncodeOptions(subsampling: .yuv420))
        let progressive = try ImageEncoders.encode(
            image, options: EncodeOptions(subsampling: .yuv444, progressive: true))
        // APP0 (JFIF) only: no EXIF, ICC or comment segments.
        #expect(Self.markers(baseline).filter { (0xE1...0xEF).contains($0) || $0 == 0xFE }.isEmpty)
        #expect(Self.markers(baseline).contains(0xC0) && !Self.markers(baseline).contains(0xC2))
        #expect(Self.markers(progressive).contains(0xC2))
        // SOF luma sampling factor byte: 0x22 for 4:2:0, 0x11 for 4:4:4.
        func lumaSampling(_ jpeg: [UInt8]) -> UInt8? {
            let sof = (2..<(jpeg.count - 1)).first {
                jpeg[$0] == 0xFF && (jpeg[$0 + 1] == 0xC0 || jpeg[$0 + 1] == 0xC2)
            }
            return sof.map { jpeg[$0 + 11] }
        }
        #expect(lumaSampling(baseline) == 0x22)
        #expect(lumaSampling(progressive) == 0x11)
        let small = try ImageEncoders.encode(image, options: EncodeOptions(quality: 20))
        let large = try ImageEncoders.encode(image, options: EncodeOptions(quality: 100))
        #expect(small.count < large.count)
        let unoptimised = try ImageEncoders.encode(image, options: EncodeOptions(optimizeHuffman: false))
        #expect(unoptimised.count > baseline.count)
    }

    @Test func transparencyIsFlattenedOntoTheBackgroundForJPEG() throws {
        var image = PixelBuffer(width: 16, height: 16, fill: RGBA(0, 0, 255, 0))  // invisible blue
        for y in 0..<16 {
            for x in 8..<16 { image[x, y] = RGBA(255, 0, 0, 128) }  // half-transparent red
        }
        let options = EncodeOptions(quality: 100, subsampling: .yuv444, background: RGBA(0, 255, 0))
        let decoded = try ImageDecoders.decode(try ImageEncoders.encode(image, options: options), path: "f.jpg")
        func close(_ a: RGBA, _ b: RGBA) -> Bool {
            abs(Int(a.r) - Int(b.r)) <= 3 && abs(Int(a.g) - Int(b.g)) <= 3 && abs(Int(a.b) - Int(b.b)) <= 3
        }
        #expect(close(decoded.buffer[2, 8], RGBA(0, 255, 0)))  // background shows through
        #expect(close(decoded.buffer[13, 8], RGBA(128, 127, 0)))  // red over green at 128/255
        #expect(decoded.buffer[13, 8].a == 255)
    }

    @Test func flatteningIsStraightAlphaOverWithRounding() {
        var image = PixelBuffer(width: 4, height: 1)
        image[0, 0] = RGBA(200, 100, 50, 255)  // opaque: unchanged
        image[1, 0] = RGBA(200, 100, 50, 0)  // transparent: the background
        image[2, 0] = RGBA(255, 0, 0, 128)  // r (255·128 + 10·127)/255 = 132.98 → 133, g 127, b 9.96 → 10
        image[3, 0] = RGBA(1, 0, 0, 1)  // (1·1 + 10·254)/255 = 9.96 → 10
        let flat = image.flattened(onto: RGBA(10, 255, 20, 0))
        #expect(flat.pixels == [200, 100, 50, 255, 10, 255, 20, 255, 133, 127, 10, 255, 10, 254, 20, 255])
        #expect(AlphaFlattening.droppingAlpha(image) == [200, 100, 50, 200, 100, 50, 255, 0, 0, 1, 0, 0])
    }

    @Test func oversizedJPEGFailsWithACodecErrorNamingThePath() {
        let image = PixelBuffer(width: 65_501, height: 1, fill: .white)
        let error = #expect(throws: EncodeError.self) {
            try ImageEncoders.encode(image, options: EncodeOptions(), path: "out/wide.jpg")
        }
        let reason = "65501x1 exceeds the JPEG maximum of 65500 pixels a side"
        #expect(error == .codec(path: "out/wide.jpg", reason: reason))
        #expect(error?.description.hasPrefix("out/wide.jpg: ") == true)
    }
}
