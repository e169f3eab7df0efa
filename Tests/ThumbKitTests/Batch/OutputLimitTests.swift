// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// A planned output is held to the same pixel and dimension limits as an input, checked for
/// every variant and scale before anything is decoded or allocated; a box times a scale that
/// overflows is refused, never trapped on (issue 12, items 11 and 14).
struct OutputLimitTests {
    /// A 1×`height` PNG: a few hundred bytes, within every input limit.
    static func tallPNG(height: Int = 65_500) throws -> [UInt8] {
        try ImageEncoders.encode(
            PixelBuffer(width: 1, height: height, fill: RGBA(200, 10, 10)), options: EncodeOptions(format: .png))
    }

    static func overLimitReason(_ body: () throws(DecodeError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            guard case .overLimit(_, let reason) = error else { return "unexpected \(error)" }
            return reason
        }
    }

    @Test func aWidthOnlyFitOfAThinSourceIsOverTheDimensionLimitBeforeAllocating() throws {
        // `-s 720x --fit fit` on 1×65500: a 153×10,000,000 output, 6 GB, used to be allocated.
        let data = try Self.tallPNG()
        let request = ThumbnailRequest(resize: ResizeOptions(width: 720, height: 10_000_000, mode: .fit))
        let reason = Self.overLimitReason { () throws(DecodeError) in
            _ = try Thumbnailer.make(from: data, path: "tall.png", request: request)
        }
        #expect(reason == "output 153x10000000 exceeds the dimension limit of 65500 pixels a side")
    }

    @Test func aHugeFillBoxIsOverThePixelLimitForEachScale() throws {
        let data = try LimitTests.encoded(.png)
        // 20000² is within the dimension limit but over the pixel limit; at @1x 10000² is fine
        // for the limits, so only the @2x variant is refused, before the @1x one is made.
        let request = ThumbnailRequest(resize: ResizeOptions(width: 10_000, height: 10_000), scales: [1, 2])
        let reason = Self.overLimitReason { () throws(DecodeError) in
            _ = try Thumbnailer.make(from: data, path: "small.png", request: request)
        }
        #expect(reason == "output 20000x20000 exceeds the pixel limit of 268402689 pixels")
    }

    @Test func aPadCanvasIsCheckedToo() throws {
        let data = try LimitTests.encoded(.png)
        let limits = ImageLimits(maxDimension: 1000)
        let options = ResizeOptions(width: 2000, height: 10, mode: .pad)
        let reason = Self.overLimitReason { () throws(DecodeError) in
            _ = try Thumbnailer.render(
                data, path: "small.png", variants: [options], decode: DecodeOptions(limits: limits))
        }
        #expect(reason == "output 2000x10 exceeds the dimension limit of 1000 pixels a side")
    }

    @Test(arguments: [(Int.max, 1, 1), (4_611_686_018_427_387_904, 2, 1), (4_611_686_018_427_387_904, 1, 2)])
    func absurdBoxesAreRefusedNotTrappedOn(width: Int, height: Int, scale: Int) throws {
        let data = try LimitTests.encoded(.png)  // 16×12
        // Default limits, and limits raised past the machine (then the memory check refuses).
        for limits in [ImageLimits(), ImageLimits(maxPixels: .max, maxDimension: .max)] {
            for mode in ResizeMode.allCases {
                let request = ThumbnailRequest(
                    resize: ResizeOptions(width: width, height: height, mode: mode), scales: [scale],
                    decode: DecodeOptions(limits: limits))
                do {
                    let set = try Thumbnailer.make(from: data, path: "small.png", request: request)
                    // Only a fit into a box with one small side makes an image: a small one.
                    #expect(mode == .fit && scale == 1, "\(mode)")
                    #expect(set.images.allSatisfy { $0.image.width <= 16 && $0.image.height <= 12 })
                } catch {
                    guard case .overLimit(let path, let reason) = error else {
                        Issue.record("\(mode): unexpected \(error)")
                        continue
                    }
                    #expect(path == "small.png")
                    #expect(!(mode == .fit && scale == 1), "\(mode): \(reason)")
                }
            }
        }
    }

    @Test func aFitPlanNearIntMaxSaturatesInsteadOfTrapping() {
        let geometry = CropGeometry.plan(
            sourceWidth: 3, sourceHeight: 2, options: ResizeOptions(width: .max, height: .max, mode: .fit))
        #expect(geometry.outputWidth == .max)
        #expect(geometry.outputHeight > 0)
    }

    @Test func outputsWithinTheLimitsAreUnchanged() throws {
        let data = try Self.tallPNG(height: 600)
        let set = try Thumbnailer.make(
            from: data, path: "tall.png",
            request: ThumbnailRequest(resize: ResizeOptions(width: 4, height: 300, mode: .fit)))
        #expect(set.images.map { [$0.image.width, $0.image.height] } == [[1, 300]])
    }
}
