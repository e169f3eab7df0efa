// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// `PNGCompression` as an option of `EncodeOptions`: the identifiers and saved form of the
/// existing options are unchanged, and `.fast` reaches the encoder by either entry point.
struct PNGCompressionTests {
    // The identifier keys outputs: the existing ones are pinned, `.fast` gets its own.
    @Test(arguments: [
        (EncodeOptions(format: .png), "png/v2?level=6"),
        (EncodeOptions(format: .png, pngCompression: .standard(level: 9)), "png/v2?level=9"),
        (EncodeOptions(format: .png, pngCompression: .standard(level: 0)), "png/v2?level=0"),
        (EncodeOptions(format: .png, pngCompression: .fast), "png/v2?level=6,fast=1"),
        (EncodeOptions(), "jpeg/v1?q=85,ss=420,prog=0,opt=1,bg=#ffffffff"),
        (EncodeOptions(pngCompression: .fast), "jpeg/v1?q=85,ss=420,prog=0,opt=1,bg=#ffffffff"),
    ])
    func theIdentifierNamesTheCompression(_ options: EncodeOptions, _ identifier: String) {
        #expect(options.identifier == identifier)
    }

    @Test func optionsSaveAsBeforeAndTheFastOneRoundTrips() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let saved = String(decoding: try encoder.encode(EncodeOptions(format: .png)), as: UTF8.self)
        // The synthesised encoding's keys and values, as options were saved before.
        #expect(
            saved
                == #"{"avifSpeed":5,"background":{"a":255,"b":255,"g":255,"r":255},"format":"png","lossless":false,"#
                + #""optimizeHuffman":true,"pngCompressionLevel":6,"progressive":false,"quality":85,"#
                + #""subsampling":"4:2:0"}"#)
        for options in [
            EncodeOptions(format: .png, pngCompression: .fast),
            EncodeOptions(format: .png, pngCompression: .standard(level: 2)),
        ] {
            #expect(try JSONDecoder().decode(EncodeOptions.self, from: encoder.encode(options)) == options)
        }
    }

    @Test func fastIsAnotherStreamOfTheSamePixelsByEitherEntryPoint() throws {
        var image = GeneratedImages.pixels(width: 64, height: 48, seed: 11)
        for i in stride(from: 3, to: image.pixels.count, by: 20) { image.pixels[i] = UInt8(i % 200) }  // RGBA
        let fast = try ImageEncoders.encode(image, options: EncodeOptions(format: .png, pngCompression: .fast))
        let standard = try ImageEncoders.encode(image, options: EncodeOptions(format: .png))
        #expect(fast != standard)
        #expect(try ImageDecoders.decode(fast, path: "f").buffer == ImageDecoders.decode(standard, path: "s").buffer)
        // Same pixels, channels, sRGB chunk and settings: the text writer without text is byte-identical.
        #expect(try ImageEncoders.encodePNGRGBA(image, text: PNGTextChunks(), compression: .fast) == fast)
        #expect(try ImageEncoders.encodePNGRGBA(image, text: PNGTextChunks()) == standard)
    }
}
