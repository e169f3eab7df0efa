// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The tEXt writer and the pixel-free tEXt reader of the PNG shim.
struct PNGTextChunksTests {
    @Test func chunksRoundTripAndThePNGIsEightBitRGBANonInterlaced() throws {
        let image = GeneratedImages.pixels(width: 20, height: 10, seed: 3)  // opaque
        let text = PNGTextChunks([
            .init("Thumb::URI", "file:///tmp/a%20b.png"), .init("Thumb::MTime", "1700000000"),
            .init(key: "Software", value: Array("thumbkit".utf8)), .init("Empty", ""),
        ])
        let png = try ImageEncoders.encodePNGRGBA(image, text: text)
        #expect(try PNGTextChunks.read(png, path: "x") == text)
        // IHDR: width, height, bit depth 8, colour type 6 (RGBA), interlace 0.
        #expect(Array(png[16..<24]) == [0, 0, 0, 20, 0, 0, 0, 10])
        #expect(png[24] == 8 && png[25] == 6 && png[28] == 0)
        let decoded = try ImageDecoders.decode(png, path: "x")
        #expect(decoded.buffer.pixels == image.pixels)
    }

    @Test func theFastEncodeIsAnotherStreamOfTheSamePixelsAndText() throws {
        var image = GeneratedImages.pixels(width: 64, height: 48, seed: 7)
        for i in stride(from: 3, to: image.pixels.count, by: 12) { image.pixels[i] = UInt8(i % 256) }  // some alpha
        let text = PNGTextChunks([.init("Thumb::URI", "file:///tmp/x.jpg"), .init("Thumb::MTime", "1")])
        let fast = try ImageEncoders.encodePNGRGBA(image, text: text, compression: .fast)
        let standard = try ImageEncoders.encodePNGRGBA(image, text: text)
        #expect(fast != standard)  // Paeth rows and Z_RLE: not the default stream
        #expect(fast[24] == 8 && fast[25] == 6 && fast[28] == 0)
        #expect(try PNGTextChunks.read(fast, path: "f") == text)
        let pixels = try ImageDecoders.decode(fast, path: "f").buffer.pixels
        #expect(pixels == (try ImageDecoders.decode(standard, path: "s").buffer.pixels))
    }

    @Test func aPNGWithoutTextHasNoChunksAndNonPNGBytesAreRefused() throws {
        let plain = try ImageEncoders.encode(
            GeneratedImages.pixels(width: 4, height: 4, seed: 1), options: EncodeOptions(format: .png))
        #expect(try PNGTextChunks.read(plain, path: "p").entries.isEmpty)
        #expect(throws: DecodeError.self) { try PNGTextChunks.read(GeneratedImages.jpeg(seed: 1), path: "j") }
        #expect(throws: DecodeError.self) { try PNGTextChunks.read(Array(plain.prefix(30)), path: "t") }
    }

    @Test func anInvalidKeywordFailsTheEncode() {
        let image = PixelBuffer(width: 1, height: 1)
        #expect(throws: EncodeError.self) {
            try ImageEncoders.encodePNGRGBA(image, text: PNGTextChunks([.init("", "x")]))
        }
        #expect(throws: EncodeError.self) {
            try ImageEncoders.encodePNGRGBA(image, text: PNGTextChunks([.init(String(repeating: "k", count: 80), "x")]))
        }
    }
}
