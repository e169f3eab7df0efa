// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// WebP, HEIC and AVIF decoders take the header facts `ImageSource` read (size, animation, ICC
/// profile, nclx colour) instead of reading the container header again (issue 13). The
/// `HeaderParses` seam counts every header parse made in the test's task.
struct ImageSourceContainerTests {

    static let image = GeneratedImages.pixels(width: 24, height: 16, seed: 4)

    @Test(arguments: [
        EncodeOptions(format: .webp), EncodeOptions(format: .webp, lossless: true), EncodeOptions(format: .avif),
    ])
    func theDecoderReadsNoHeaderOfItsOwn(_ options: EncodeOptions) throws {
        let bytes = try ImageEncoders.encode(Self.image, options: options)
        var source: ImageSource?
        #expect(try HeaderParses.counted { source = try ImageSource(bytes, path: "x") } == 1)
        let parsed = try #require(source)
        var decoded: DecodedImage?
        #expect(try HeaderParses.counted { decoded = try ImageDecoders.decode(parsed) } == 0)
        #expect(decoded?.buffer.width == 24 && decoded?.buffer.height == 16)
        // The same pixels as a decode from the bytes, which reads the header once.
        var again: DecodedImage?
        #expect(try HeaderParses.counted { again = try ImageDecoders.decode(bytes, path: "x") } == 1)
        #expect(again?.buffer == decoded?.buffer)
    }

    @Test func aStricterDimensionLimitHasLibheifReadTheHeaderAgainWithIt() throws {
        let bytes = try ImageEncoders.encode(Self.image, options: EncodeOptions(format: .avif))
        let source = try ImageSource(bytes, path: "x.avif")
        // libheif's own size check runs while it reads the header: a smaller limit than the
        // header read's must reach it, so the header is read again, and libheif refuses the file.
        let strict = DecodeOptions(limits: ImageLimits(maxDimension: 20))
        #expect(strict.limits.maxDimension < ImageDecoders.HEIF.headerLimits.maxDimension)
        var thrown: DecodeError?
        let count = HeaderParses.counted {
            do { _ = try ImageDecoders.decode(source, options: strict) } catch { thrown = error as? DecodeError }
        }
        #expect(count == 1)
        guard case .overLimit = thrown else {
            Issue.record("expected overLimit, got \(String(describing: thrown))")
            return
        }
    }
}
