// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitQuality

@testable import ThumbKitBench
@testable import ThumbKitCatalog

/// Each tool is scored against a reference cut with its own crop geometry, and the shift of its
/// crop is reported apart, in pixels.
struct BenchCropGeometryTests {
    /// 102×60 of fine noise: a fill box of 30×30 scales it to 51×30, so the exact crop starts
    /// 10.5 output pixels in and a whole-pixel crop 10 pixels in.
    private static func noise() -> PixelBuffer {
        var state: UInt32 = 12345
        var pixels: [UInt8] = []
        for _ in 0..<(102 * 60) {
            state = state &* 1_103_515_245 &+ 12345
            let v = UInt8(truncatingIfNeeded: state >> 16)
            pixels += [v, v &+ 40, 255 &- v, 255]
        }
        return PixelBuffer(width: 102, height: 60, pixels: pixels)
    }

    private static let box = ResizeOptions(width: 30, height: 30, mode: .fill)

    @Test func aWholePixelCropStartsAtAWholeOutputPixelAndIsHalfAPixelOffCentre() {
        let exact = BenchCropGeometry.fractional.plan(sourceWidth: 102, sourceHeight: 60, options: Self.box)
        let whole = BenchCropGeometry.wholePixel.plan(sourceWidth: 102, sourceHeight: 60, options: Self.box)
        #expect(exact.sourceRect.x == 21)  // 10.5 output pixels × 2 source pixels each
        #expect(whole.sourceRect.x == 20 && whole.sourceRect.width == 60 && whole.sourceRect.height == 60)
        #expect(whole.outputWidth == 30 && whole.outputHeight == 30)
        #expect(BenchCropGeometry.fractional.centringOffset(sourceWidth: 102, sourceHeight: 60, options: Self.box) == 0)
        #expect(
            BenchCropGeometry.wholePixel.centringOffset(sourceWidth: 102, sourceHeight: 60, options: Self.box) == 0.5)
        // A fit box has no crop: both geometries agree.
        let fit = ResizeOptions(width: 30, height: 30, mode: .fit)
        #expect(
            BenchCropGeometry.wholePixel.plan(sourceWidth: 102, sourceHeight: 60, options: fit)
                == CropGeometry.plan(sourceWidth: 102, sourceHeight: 60, options: fit))
    }

    @Test func peersDeclareTheirCropGeometry() {
        #expect(BenchTool.thumbkit.cropGeometry == .fractional && BenchTool.pillow.cropGeometry == .fractional)
        for tool in [BenchTool.vipsthumbnail, .imagemagick, .imagemagickHint, .graphicsmagick] {
            #expect(tool.cropGeometry == .wholePixel, "\(tool)")
        }
        let peer = BenchPeer(tool: .vipsthumbnail, executable: "/usr/bin/vipsthumbnail", version: "x")
        #expect(peer.cropGeometry == .wholePixel)
    }

    @Test func aPerfectWholePixelToolScoresAsPerfectAsThumbKitAndItsShiftIsReportedApart() throws {
        let workspace = try TestWorkspace()
        let image = Self.noise()
        let source = workspace.path("corpus/png/noise.png")
        try FileManager.default.createDirectory(atPath: workspace.path("corpus/png"), withIntermediateDirectories: true)
        let png = EncodeOptions(format: .png)
        try FileIO.writeAtomically(try ImageEncoders.encode(image, options: png), to: source)
        let bytes = try FileIO.read(source)
        let file = BenchCorpus.File(path: source, header: try ImageDecoders.readHeader(bytes, path: source))
        // Each "tool" wrote exactly the reference of its own geometry: a perfect resampler.
        var folders: [String: String] = [:]
        for (tool, geometry) in [("thumbkit", BenchCropGeometry.fractional), ("vipsthumbnail", .wholePixel)] {
            let folder = workspace.path("out/\(tool)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let plan = geometry.plan(sourceWidth: 102, sourceHeight: 60, options: Self.box)
            let output = ReferenceResampler.render(image, geometry: plan)
            try FileIO.writeAtomically(try ImageEncoders.encode(output, options: png), to: folder + "/noise.png")
            folders[tool] = folder
        }
        let target = BenchQuality.Target(
            key: "thumb/png", resize: Self.box, outputExtension: "png", outputFolders: folders)
        let scores = BenchQuality.score(files: [file], targets: [target], linearLight: false, threads: 1)
        let thumbkit = try #require(scores["thumb/png"]?["thumbkit"])
        let vips = try #require(scores["thumb/png"]?["vipsthumbnail"])
        // Against ThumbKit's fractional crop, the half-pixel shift scored about 0.2 lower.
        #expect(thumbkit.ssim.count == 1 && thumbkit.ssim[0] > 0.9999)
        #expect(vips.ssim.count == 1 && vips.ssim[0] > 0.9999, "vips SSIM \(vips.ssim)")
        #expect(thumbkit.centringOffsets == [0] && vips.centringOffsets == [0.5])
    }
}
