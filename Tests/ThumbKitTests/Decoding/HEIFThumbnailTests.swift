// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// A HEIC or AVIF with a `thmb` item is decoded from that thumbnail when it serves the request
/// (issue 27, item 8): a 44×44 list thumbnail of a 4000×3000 image then costs a 320×240 decode,
/// and stays within a deadline that the primary image's one uninterruptible decode could not.
/// The files are made here with `heif-enc --thumb`, from a picture whose left half is red and
/// right half blue, so that a thumbnail shown the wrong way round would be seen.
@Suite(.needs(ToolRequirement.programs(["heif-enc"])))
struct HEIFThumbnailTests {
    static let (width, height) = (4000, 3000)

    /// The picture: red on the left, blue on the right; opaque, or half-transparent with `alpha`.
    static func picture(alpha: Bool) -> PixelBuffer {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = x < width / 2 ? 220 : 20
                pixels[i + 2] = x < width / 2 ? 20 : 220
                pixels[i + 3] = alpha ? 128 : 255
            }
        }
        return PixelBuffer(width: width, height: height, pixels: pixels)
    }

    /// Encodes the picture with heif-enc (`arguments` added), and returns the file's bytes.
    static func encode(_ name: String, alpha: Bool = false, _ arguments: [String]) throws -> [UInt8] {
        let folder = try TestBinary.temporaryDirectory("tk-heif-thmb")
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("in.png").path
        let out = folder.appendingPathComponent(name).path
        try Data(ImageEncoders.encode(picture(alpha: alpha), options: EncodeOptions(format: .png)))
            .write(to: URL(fileURLWithPath: png))
        try CodecTools.mustRun("heif-enc", arguments + ["-o", out, png])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    static let avif = Result { try encode("thmb.avif", ["-A", "-p", "speed=9", "--thumb", "320"]) }
    static let heic = Result { try encode("thmb.heic", ["-p", "preset=ultrafast", "--thumb", "320"]) }

    @Test(arguments: ["avif", "heic"])
    func aSmallRequestDecodesTheThumbnailAndABigOneThePrimaryImage(_ kind: String) throws {
        let data = try (kind == "avif" ? Self.avif : Self.heic).get()
        let source = try ImageSource(data, path: "thmb.\(kind)")
        #expect(source.heif?.thumbnailCount == 1)
        // 44×44 at margin 2 needs 88 of 3000 rows: the 320×240 thumbnail serves it.
        let small = try ImageDecoders.decode(source, minimumScale: 88.0 / 3000)
        #expect(small.buffer.width == 320 && small.buffer.height == 240)
        #expect(small.loadScale == 320.0 / 4000)
        #expect(small.header.width == 4000 && small.header.height == 3000)
        // 400 of 3000 rows: more than the thumbnail has, so the primary image.
        let big = try ImageDecoders.decode(source, minimumScale: 400.0 / 3000)
        #expect(big.buffer.width == 4000 && big.buffer.height == 3000)
        #expect(big.loadScale == 1)
    }

    @Test func aThumbnailFromTheThmbItemShowsThePictureAsThePrimaryImageDoes() throws {
        let data = try Self.avif.get()
        let fill = ResizeOptions(width: 44, height: 44)
        let fromThumbnail = try Thumbnailer.render(data, path: "thmb.avif", variants: [fill]).images[0]
        // A margin that no thumbnail can serve forces the primary image.
        let fromPrimary = try Thumbnailer.render(
            data, path: "thmb.avif", variants: [fill], shrinkOnLoadMargin: 100
        ).images[0]
        #expect(fromThumbnail.width == 44 && fromThumbnail.height == 44)
        // Left column red, right column blue, in both, and within a few levels of each other.
        let left = fromThumbnail.pixels[(22 * 44 + 2) * 4]
        let right = fromThumbnail.pixels[(22 * 44 + 41) * 4 + 2]
        #expect(left > 180 && right > 180, "left red \(left), right blue \(right)")
        let worst = zip(fromThumbnail.pixels, fromPrimary.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 48, "largest difference \(worst)")
        let mean =
            Double(zip(fromThumbnail.pixels, fromPrimary.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +))
            / Double(fromThumbnail.pixels.count)
        #expect(mean < 3, "mean difference \(mean)")
    }

    @Test func theThumbnailServesASmallRequestThatThePrimaryDecodesMemoryBudgetRefuses() throws {
        let data = try Self.avif.get()
        // Within the pixel limit, but one libheif call of 12 Mpx peaks at 7 bytes a pixel, over
        // the 6 a pixel of the limit that `uninterruptibleDecodeBudgetBytes` allows: the
        // primary image is refused before its decode starts (a bound on memory, not on time, so
        // the test does not depend on the machine's speed).
        let decode = DecodeOptions(limits: ImageLimits(maxPixels: Self.width * Self.height))
        let refused = #expect(throws: DecodeError.self) {
            try Thumbnailer.render(
                data, path: "thmb.avif", variants: [ResizeOptions(width: 1000, height: 750)], decode: decode)
        }
        guard case .overLimit(_, let reason) = refused else {
            Issue.record("expected overLimit, got \(String(describing: refused))")
            return
        }
        #expect(reason.contains("in one libheif call"), "\(reason)")
        let served = try Thumbnailer.render(
            data, path: "thmb.avif", variants: [ResizeOptions(width: 44, height: 44)], decode: decode)
        #expect(served.images[0].width == 44)
    }

    @Test func aThumbnailWithoutThePrimaryImagesAlphaIsNotUsed() throws {
        let data = try Self.encode(
            "alpha.avif", alpha: true, ["-A", "-p", "speed=9", "--thumb", "320", "--no-thumb-alpha"])
        let source = try ImageSource(data, path: "alpha.avif")
        #expect(source.heif?.thumbnailCount == 1)
        let decoded = try ImageDecoders.decode(source, minimumScale: 88.0 / 3000)
        #expect(decoded.buffer.width == 4000, "a thumbnail without alpha would show an opaque picture")
        #expect(decoded.buffer.pixels[3] == 128)
    }
}
