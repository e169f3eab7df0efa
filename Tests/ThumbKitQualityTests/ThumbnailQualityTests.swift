// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit
@testable import ThumbKitQuality

/// End-to-end quality of the thumbnail path on real photos: orientation, shrink-on-load, and
/// the side-by-side score against vipsthumbnail.
struct ThumbnailQualityTests {
    static let fill88 = ResizeOptions(width: 88, height: 88, mode: .fill)

    static func thumbnail(_ path: String, _ options: ResizeOptions = fill88) throws -> PixelBuffer {
        let data = try TestCorpus.bytes(of: path)
        return try Thumbnailer.render(data, path: path, variants: [options]).images[0]
    }

    static func reference(_ path: String, _ options: ResizeOptions = fill88) throws -> PixelBuffer {
        let data = try TestCorpus.bytes(of: path)
        return try ReferenceThumbnail.make(from: data, path: path, options: options)
    }

    static let photoNames: [String] = TestCorpus.rows { $0.path.hasPrefix("photos/") }.map(\.path)

    /// Every Landscape_N / Portrait_N file shows the same picture once its orientation is applied:
    /// its thumbnail is compared with the orientation-1 file's (the files were re-encoded after
    /// turning, so JPEG noise allows a small mean difference, far below what a wrong turn gives).
    @Test(.needsCorpus, .tags(.corpus), arguments: ["Landscape", "Portrait"], 0...8)
    func everyOrientationShowsTheSamePicture(_ kind: String, _ n: Int) throws {
        guard TestCorpus.requireCorpus() else { return }
        let options = ResizeOptions(width: 120, height: 80, mode: .fit)
        let upright = try Self.thumbnail("jpeg/exif-orientation/\(kind)_1.jpg", options)
        let turned = try Self.thumbnail("jpeg/exif-orientation/\(kind)_\(n).jpg", options)
        #expect(turned.width == upright.width && turned.height == upright.height)
        let mad = try ImageComparison.meanAbsoluteDifference(turned, upright)
        #expect(mad < 4, "\(kind)_\(n): mean absolute difference \(mad)")
        // A wrong turn must fail this check: the upright picture mirrored is far away.
        let mirrored = try ImageComparison.meanAbsoluteDifference(upright.applying(.upMirrored), upright)
        #expect(mirrored > 3 * max(mad, 1))
    }

    @Test(.needsCorpus, .tags(.corpus)) func ignoringOrientationKeepsTheStoredPixels() throws {
        guard TestCorpus.requireCorpus() else { return }
        let path = "jpeg/exif-orientation/Landscape_6.jpg"
        let data = try TestCorpus.bytes(of: path)
        let header = try ImageDecoders.readHeader(data, path: path)
        #expect(header.orientation == .right)
        let stored = try Thumbnailer.render(
            data, path: path, variants: [ResizeOptions(width: 100, height: 100, mode: .fit)],
            decode: DecodeOptions(autoRotate: false)
        ).images[0]
        // Stored 1200×1800, so fit in 100×100 without turning gives 67×100 (a turned one, 100×67).
        #expect(header.width == 1200 && header.height == 1800)
        #expect(stored.width == 67 && stored.height == 100)
    }

    /// Shrink-on-load (a JPEG decoded at n/8) stays close to the full-decode exact reference.
    @Test(.needsCorpus, .tags(.corpus), arguments: photoNames.filter { $0.hasSuffix(".jpg") })
    func shrinkOnLoadStaysCloseToTheFullDecodeReference(_ path: String) throws {
        guard TestCorpus.requireCorpus() else { return }
        let data = try TestCorpus.bytes(of: path)
        let rendered = try Thumbnailer.render(data, path: path, variants: [Self.fill88])
        #expect(rendered.scaleNumerator < 8 || rendered.header.width < 400, "\(path) should shrink on load")
        let ssim = try ImageComparison.ssim(rendered.images[0], Self.reference(path))
        #expect(ssim >= 0.97, "\(path): SSIM \(ssim)")
    }

    /// The acceptance check of the engine issue: on the corpus photos, ThumbKit's 88×88 fill is
    /// at least as close (mean SSIM) to the exact reference as vipsthumbnail's centre crop.
    @Test(.needsCorpus, .needs(.program("vipsthumbnail")), .tags(.corpus, .realProcess))
    func meanSSIMIsAtLeastVipsthumbnails() throws {
        guard TestCorpus.requireCorpus(), ToolRequirement.require([.program("vipsthumbnail")]),
            let vips = ToolRequirement.find("vipsthumbnail")
        else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tk-vips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var ours: [Double] = []
        var theirs: [Double] = []
        for path in Self.photoNames {
            let reference = try Self.reference(path)
            ours.append(try ImageComparison.ssim(try Self.thumbnail(path), reference))
            let out = dir.appendingPathComponent(
                URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".png")
            let status = try Self.run(
                vips,
                [
                    "--size", "88x88", "--smartcrop", "centre", "-o", out.path + "[strip]",
                    TestCorpus.url(for: path).path,
                ])
            #expect(status == 0, "vipsthumbnail failed on \(path)")
            let theirImage = try ImageDecoders.decode(try FileIO.read(out.path), path: out.path).buffer
            theirs.append(try ImageComparison.ssim(theirImage, reference))
        }
        let meanOurs = ours.reduce(0, +) / Double(ours.count)
        let meanTheirs = theirs.reduce(0, +) / Double(theirs.count)
        print(
            "quality: mean SSIM vs exact reference over \(ours.count) photos: ThumbKit \(meanOurs), vipsthumbnail \(meanTheirs)"
        )
        #expect(meanOurs >= meanTheirs)
    }

    static func run(_ program: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
