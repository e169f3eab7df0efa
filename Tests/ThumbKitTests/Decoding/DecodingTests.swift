// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// Format sniffing, error shapes and limits, on the repository's own small test images.
struct DecodingTests {
    @Test func textFileNamedJpgIsNotAnImage() throws {
        let path = TestImages.url(for: "plain-text-named.jpg").path
        let data = try TestImages.bytes(of: "plain-text-named.jpg")
        #expect(throws: DecodeError.notAnImage(path: path, reason: "not a PNG, JPEG, WebP, HEIC or AVIF file")) {
            try ImageDecoders.decode(data, path: path)
        }
        #expect(throws: DecodeError.notAnImage(path: path, reason: "not a PNG, JPEG, WebP, HEIC or AVIF file")) {
            try ImageDecoders.readHeader(data, path: path)
        }
    }

    @Test func zeroByteFileIsEmptyAndSaysSo() throws {
        // Made here rather than kept in TestImages/: an empty file is the same bytes as the
        // shared corpus's empty.jpg, and the corpus is never copied into the project.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tk-zero-\(UUID().uuidString).png")
            .path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let readError = #expect(throws: DecodeError.self) { try FileIO.read(path) }
        #expect(readError == .empty(path: path))
        let error = #expect(throws: DecodeError.self) { try ImageDecoders.decode([], path: path) }
        #expect(error == .empty(path: path))
        #expect(error?.description == "\(path): empty file")
    }

    @Test(arguments: ["rgb8-gradient-8x8-truncated-in-idat.png", "png-signature-only.png"])
    func brokenPNGIsCorruptWithLibpngsReason(_ name: String) throws {
        let path = TestImages.url(for: name).path
        let data = try TestImages.bytes(of: name)
        let error = #expect(throws: DecodeError.self) { try ImageDecoders.decode(data, path: path) }
        guard case .corrupt(let errorPath, let reason) = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(reason == "read beyond end of data")
    }

    @Test func validPNGDecodesToItsExactPixels() throws {
        // scripts/make-test-images: red = x·255/7, green = y·255/7, blue = 128, opaque.
        let image = try ImageDecoders.decode(try TestImages.bytes(of: "rgb8-gradient-8x8.png"), path: "gradient")
        #expect(image.buffer.width == 8 && image.buffer.height == 8)
        #expect(image.header == ImageHeader(format: .png, width: 8, height: 8, components: 3))
        for y in 0..<8 {
            for x in 0..<8 {
                #expect(image.buffer[x, y] == RGBA(UInt8(x * 255 / 7), UInt8(y * 255 / 7), 128, 255))
            }
        }
        #expect(image.warnings.isEmpty)
        #expect(image.scaleNumerator == 8)
    }

    @Test func pngIgnoresMinimumScale() throws {
        let data = try TestImages.bytes(of: "rgb8-gradient-8x8.png")
        let image = try ImageDecoders.decode(data, path: "gradient", minimumScale: 0.125)
        #expect(image.scaleNumerator == 8)
        #expect(image.buffer.width == 8 && image.buffer.height == 8)
    }

    @Test func jpegBytesAreDecodedAsJPEGWhateverTheName() throws {
        let jpeg = try ImageEncoders.encode(PixelBuffer(width: 4, height: 4, fill: .white), options: EncodeOptions())
        let image = try ImageDecoders.decode(jpeg, path: "holiday.png")
        #expect(image.header.format == .jpeg)
        let png = try TestImages.bytes(of: "rgb8-gradient-8x8.png")
        #expect(try ImageDecoders.readHeader(png, path: "photo.jpg").format == .png)
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        let data = try TestImages.bytes(of: "rgb8-gradient-8x8.png")
        let limits = ImageLimits(maxPixels: 63)
        let error = #expect(throws: DecodeError.self) {
            try ImageDecoders.decode(data, path: "g.png", options: DecodeOptions(limits: limits))
        }
        #expect(error == .overLimit(path: "g.png", reason: "8x8 exceeds the pixel limit of 63 pixels"))
        let enough = DecodeOptions(limits: ImageLimits(maxPixels: 64))
        #expect(try ImageDecoders.decode(data, path: "g.png", options: enough).buffer.pixelCount == 64)
    }

    @Test func dimensionAndFileSizeLimitsAreChecked() throws {
        let data = try TestImages.bytes(of: "rgb8-gradient-8x8.png")
        let narrow = DecodeOptions(limits: ImageLimits(maxDimension: 7))
        let reason = "8x8 exceeds the dimension limit of 7 pixels a side"
        #expect(throws: DecodeError.overLimit(path: "g.png", reason: reason)) {
            try ImageDecoders.decode(data, path: "g.png", options: narrow)
        }
        let small = DecodeOptions(limits: ImageLimits(maxFileBytes: data.count - 1))
        let error = #expect(throws: DecodeError.self) { try ImageDecoders.decode(data, path: "g.png", options: small) }
        guard case .overLimit = error else {
            Issue.record("expected .overLimit, got \(String(describing: error))")
            return
        }
    }

    @Test func decodeFileReadsFromDiskAndNamesMissingFiles() throws {
        let url = TestImages.url(for: "rgb8-gradient-8x8.png")
        #expect(try ImageDecoders.decodeFile(atPath: url.path).buffer.width == 8)
        let missing = TestImages.url(for: "no-such-file.png").path
        let error = #expect(throws: DecodeError.self) { try ImageDecoders.decodeFile(atPath: missing) }
        guard case .unreadable(let path, let reason) = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(path == missing)
        #expect(!reason.isEmpty)
        #expect(throws: DecodeError.self) { try ImageDecoders.decodeFile(atPath: TestImages.root.path) }
    }

    @Test(arguments: [
        ("Bogus Huffman table definition", "bogus Huffman table definition"),
        ("IDAT: CRC error", "IDAT: CRC error"),
        ("JPEG datastream contains no image", "JPEG datastream contains no image"),
        ("Premature end of JPEG file.\n", "premature end of JPEG file"),
    ])
    func libraryMessagesBecomeOneLowerCaseLine(_ message: String, _ reason: String) {
        #expect(CodecMessage.normalized(message) == reason)
    }

    @Test func unsupportedAndOverLimitMessagesAreClassified() {
        #expect(
            ImageDecoders.codecFailure("unsupported JPEG process: SOF type 0xc3", path: "a")
                == .unsupported(path: "a", reason: "unsupported JPEG process: SOF type 0xc3"))
        #expect(
            ImageDecoders.codecFailure("maximum supported image dimension is 65500 pixels", path: "a")
                == .overLimit(path: "a", reason: "maximum supported image dimension is 65500 pixels"))
        #expect(
            ImageDecoders.codecFailure("IDAT: CRC error", path: "a") == .corrupt(path: "a", reason: "IDAT: CRC error"))
    }
}
