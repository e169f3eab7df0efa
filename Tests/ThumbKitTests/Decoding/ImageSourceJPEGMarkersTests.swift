// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// A progressive JPEG's markers are parsed once per `ImageSource` (issue 13): the frame header
/// with the header, the scan layout on the first fast-path decode, and every later consumer
/// (memory estimate, coefficient check, fast paths, row decode) reads them from the source.
/// `HeaderParses` counts every walk over the markers made in the test's task.
struct ImageSourceJPEGMarkersTests {

    static let variants = [ResizeOptions(width: 8, height: 6, mode: .fit)]

    @Test(arguments: ["ycc444-progressive-restart3-75x53.jpg", "ycc420-progressive-75x53.jpg"])
    func everyConsumerReadsTheLayoutTheSourceParsed(_ name: String) throws {
        let data = try TestImages.bytes(of: name)
        var source: ImageSource?
        #expect(try HeaderParses.counted { source = try ImageSource(data, path: name) } == 1)  // the frame header
        let parsed = try #require(source)
        let options = DecodeOptions()
        let rest = try HeaderParses.counted {
            _ = Thumbnailer.decodeMemoryEstimate(parsed, variants: Self.variants, decode: options)
            // 1/8 takes a fast path (the layout is walked here, once); 2/8 and 3/8 ask for the
            // frame (too small for the reduced path); 8/8 checks the coefficient memory.
            for numerator in [1, 1, 2, 3, 8] {
                _ = try ImageDecoders.JPEG.decode(parsed, options: options, scaleNumerator: numerator)
            }
            _ = try ImageDecoders.JPEG.decodeRows(parsed, options: options, scaleNumerator: 1) { _ in }
            _ = try Thumbnailer.render(parsed, variants: Self.variants, decode: options)
        }
        #expect(rest == 1)
        // The same decodes from the bytes parse each time: the counter sees every walk.
        let fresh = try HeaderParses.counted {
            for numerator in [1, 1] {
                _ = try ImageDecoders.JPEG.decode(
                    ImageSource(data, path: name), options: options, scaleNumerator: numerator)
            }
        }
        #expect(fresh == 4)
    }

    @Test func theReducedPathAndItsEstimateShareOneLayout() throws {
        // 4096×3072 4:2:0 in libjpeg's standard 10 scans: libjpeg would need 36 MiB, so 2/8 and
        // 3/8 take the reduced path.
        let source = try ImageSource(JPEGScanWorkTests.valid(), path: "valid.jpg")
        let walks = try HeaderParses.counted {
            #expect(ImageDecoders.JPEG.coefficientBufferBytes(source, scaleNumerator: 3) > 0)
            let image = try ImageDecoders.JPEG.decode(source, options: DecodeOptions(), scaleNumerator: 3)
            #expect(image.buffer.width == 1536 && image.buffer.height == 1152)
            #expect(ImageDecoders.JPEG.decodeProgressiveFast(source, scaleNumerator: 2) != nil)
        }
        #expect(walks == 1)
    }

    @Test(arguments: [EncodeOptions.Subsampling.yuv444, .yuv420])
    func aSequentialFileIsWalkedOnlyByTheBaselinePathAtOneEighth(_ subsampling: EncodeOptions.Subsampling) throws {
        let data = try ImageEncoders.encode(
            GeneratedImages.pixels(width: 40, height: 24, seed: 3),
            options: EncodeOptions(quality: 90, subsampling: subsampling))
        var source: ImageSource?
        // The frame header only, which the baseline path at 1/8 starts from; the scans wait.
        #expect(try HeaderParses.counted { source = try ImageSource(data, path: "b.jpg") } == 1)
        let parsed = try #require(source)
        #expect(parsed.jpeg?.markers?.frame?.marker == 0xC0)
        #expect(ImageDecoders.JPEG.coefficientBufferBytes(parsed, scaleNumerator: 8) == 0)
        let options = DecodeOptions()
        #expect(
            try HeaderParses.counted { _ = try ImageDecoders.JPEG.decode(parsed, options: options, scaleNumerator: 8) }
                == 0)
        #expect(
            try HeaderParses.counted { _ = try ImageDecoders.JPEG.decode(parsed, options: options, scaleNumerator: 1) }
                == 1)
        #expect(ImageDecoders.JPEG.decodeProgressiveAtOneEighth(parsed) == nil)
    }
}
