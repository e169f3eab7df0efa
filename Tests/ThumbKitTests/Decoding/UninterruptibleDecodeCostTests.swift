// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// What cannot be interrupted is bounded before it starts (issue 27, item 8). The file is
/// `TestImages/webp-lossless-flat-16383x16383.webp`: 38 bytes that declare 16383×16383 (made
/// with Pillow: `Image.new("RGB", (16383, 16383)).save(f, lossless=True, method=0)`), which
/// libwebp decodes in one call of 1.2 GB and 1.65 s; `--timeout 1` used to hold only after it.
struct UninterruptibleDecodeCostTests {
    static let name = "webp-lossless-flat-16383x16383.webp"

    @Test func aTinyHugeWebPIsRefusedBeforeItsDecodeWhenTheDeadlineCannotCoverIt() throws {
        let data = try TestImages.bytes(of: Self.name)
        #expect(data.count == 38)
        let limits = ImageLimits(maxSeconds: 1)
        let error = #expect(throws: DecodeError.self) {
            try ImageDecoders.WebP.decode(
                ImageSource(data, path: "big.webp"), options: DecodeOptions(limits: limits),
                deadline: limits.deadline())
        }
        guard case .overLimit(let path, let reason) = error else {
            Issue.record("expected overLimit, got \(String(describing: error))")
            return
        }
        #expect(path == "big.webp")
        #expect(reason.hasPrefix("a 16383x16383 image takes at least 1.3 s to decode in one libwebp call"))
    }

    @Test func theTimeBoundIsALowerBoundThatLetsSmallImagesThrough() throws {
        let second = Deadline(seconds: 1)
        // 100 Mpx of WebP: 0.5 s at the fastest rate, so a 1 s deadline may cover it.
        try UninterruptibleDecodeCost.webp.check(
            width: 10_000, height: 10_000, limits: ImageLimits(), deadline: second, path: "a.webp")
        // 100 Mpx of AVIF: at least 2 s.
        #expect(throws: DecodeError.self) {
            try UninterruptibleDecodeCost.heif.check(
                width: 10_000, height: 10_000, limits: ImageLimits(), deadline: second, path: "a.avif")
        }
        // Without a deadline only memory counts.
        try UninterruptibleDecodeCost.heif.check(
            width: 10_000, height: 10_000, limits: ImageLimits(), deadline: .never, path: "a.avif")
    }

    @Test func theMemoryBoundFollowsThePixelLimit() throws {
        // The AVIF grid of the report: 30×30 cells of 546 px, just under the pixel limit, 1.9 GB.
        let error = #expect(throws: DecodeError.self) {
            try UninterruptibleDecodeCost.heif.check(
                width: 16_380, height: 16_380, limits: ImageLimits(), deadline: .never, path: "grid.avif")
        }
        #expect("\(String(describing: error))".contains("over the 1536 MiB its pixel limit allows"))
        // The flat lossless WebP fits 1.5 GiB (4.5 B a pixel), but not a third of it.
        try UninterruptibleDecodeCost.webp.check(
            width: 16_383, height: 16_383, limits: ImageLimits(), deadline: .never, path: "big.webp")
        #expect(throws: DecodeError.self) {
            try UninterruptibleDecodeCost.webp.check(
                width: 16_383, height: 16_383, limits: ImageLimits(maxPixels: ImageLimits.defaultMaxPixels / 3),
                deadline: .never, path: "big.webp")
        }
        #expect(ImageLimits().uninterruptibleDecodeBudgetBytes == 6 * ImageLimits.defaultMaxPixels)
    }
}
