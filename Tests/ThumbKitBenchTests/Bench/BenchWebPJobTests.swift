// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

/// The `webp-256` job: `fit-256` in WebP at quality 80, for ThumbKit and every peer that writes
/// WebP, scored like the JPEG and PNG jobs.
struct BenchWebPJobTests {
    private func invocations(_ tool: BenchTool, _ set: BenchImageSet) -> [[String]]? {
        BenchJob.webp256.workload(
            for: tool, set: set, corpus: BenchJobTests.corpus, output: "/o", parallel: 2,
            programs: BenchJobTests.programs)?
            .invocations.map(\.arguments)
    }

    struct Row: Sendable, CustomStringConvertible {
        let tool: BenchTool
        let set: BenchImageSet
        let expected: [[String]]?
        var description: String { "\(tool.rawValue) \(set.rawValue)" }
    }

    static let rows: [Row] = [
        Row(
            tool: .thumbkit, set: .jpeg,
            expected: [
                [
                    "/bin/thumbkit", "thumb", "-s", "256x256", "--fit", "fit", "-q", "80", "-j", "2", "-o",
                    "/o/%s.webp", "/c/jpeg/a.jpg", "/c/jpeg/b.jpg",
                ]
            ]),
        // The PNG set is WebP too (with alpha), not PNG as in fit-256.
        Row(
            tool: .thumbkit, set: .png,
            expected: [
                [
                    "/bin/thumbkit", "thumb", "-s", "256x256", "--fit", "fit", "-q", "80", "-j", "2", "-o",
                    "/o/%s.webp", "/c/png/p.png",
                ]
            ]),
        Row(
            tool: .vipsthumbnail, set: .png,
            expected: [["vipsthumbnail", "--size", "256x256", "-o", "/o/%s.webp[Q=80,strip]", "/c/png/p.png"]]),
        Row(
            tool: .vipsthumbnail, set: .jpeg,
            expected: [
                [
                    "vipsthumbnail", "--size", "256x256", "-o", "/o/%s.webp[Q=80,strip]", "/c/jpeg/a.jpg",
                    "/c/jpeg/b.jpg",
                ]
            ]),
        // No 4:2:0 option: WebP's lossy format is always 4:2:0.
        Row(
            tool: .imagemagick, set: .png,
            expected: [
                [
                    "mogrify", "-path", "/o", "-thumbnail", "256x256", "-quality", "80", "-format", "webp",
                    "/c/png/p.png",
                ]
            ]),
        Row(
            tool: .imagemagickHint, set: .jpeg,
            expected: ["a.jpg", "b.jpg"].map {
                [
                    "mogrify", "-path", "/o", "-define", "jpeg:size=512x512", "-thumbnail", "256x256", "-quality",
                    "80", "-format", "webp", "/c/jpeg/\($0)",
                ]
            }),
        Row(tool: .imagemagickHint, set: .png, expected: nil),
        Row(
            tool: .graphicsmagick, set: .jpeg,
            expected: ["a.jpg", "b.jpg"].map {
                [
                    "gm", "mogrify", "-output-directory", "/o", "-size", "512x512", "-thumbnail", "256x256",
                    "-quality", "80", "-format", "webp", $0,
                ]
            }),
        Row(
            tool: .pillow, set: .png,
            expected: [
                [
                    "/usr/bin/python3", "/s/pillow_thumb.py", "--size", "256x256", "--mode", "fit", "--format", "webp",
                    "--quality", "80", "--jobs", "2", "--out", "/o", "/c/png/p.png",
                ]
            ]),
        Row(tool: .djpegFloor, set: .png, expected: nil),
        Row(
            tool: .decodeFloor, set: .png,
            expected: [["/bin/thumbkit", "bench", "decode", "--job", "webp-256", "-j", "2", "/c/png/p.png"]]),
    ]

    @Test(arguments: rows)
    func eachToolGetsItsWebPCommandLine(row: Row) {
        #expect(invocations(row.tool, row.set) == row.expected)
    }

    @Test func theJobIsFit256InWebPForBothSetsBesideTheOthers() throws {
        let job = try #require(BenchJob.named("webp-256"))
        #expect(job.isEnabled && !job.isCatalogBuild && job.sets == [.jpeg, .png])
        #expect(job.resize == BenchJob.fit256.resize && job.quality == 80)
        #expect(job.outputFormat(for: .jpeg) == .webp && job.outputFormat(for: .png) == .webp)
        #expect(BenchJob.enabled.map(\.name) == ["bug-thumb", "fit-256", "webp-256", "sharp-jpeg", "icons"])
        // The scale ThumbKit decodes at, and so the djpeg floor, is fit-256's: the output format
        // does not change the resize.
        for file in BenchJobTests.corpus.files(.jpeg) {
            #expect(job.scaleNumerator(for: file) == BenchJob.fit256.scaleNumerator(for: file))
        }
        let floor = try #require(invocations(.djpegFloor, .jpeg))
        #expect(floor.count == 2 && floor.allSatisfy { $0.first == "djpeg" })
        #expect(
            floor
                == BenchJob.fit256.workload(
                    for: .djpegFloor, set: .jpeg, corpus: BenchJobTests.corpus, output: "/o", parallel: 2,
                    programs: BenchJobTests.programs)?
                .invocations.map(\.arguments))
    }

    @Test func everyToolsOutputsAreScoredAsWebPFiles() {
        let session = BenchSession(
            options: BenchSession.Options(
                corpus: BenchJobTests.corpus, jobs: [.webp256],
                tools: [BenchTool.thumbkit, .vipsthumbnail, .pillow, .decodeFloor].map {
                    BenchPeer(tool: $0, executable: "/bin/\($0.rawValue)", version: "1")
                }, runs: 1, parallel: 2, linearLight: false, programs: BenchJobTests.programs, workFolder: "/w",
                peersRequested: true, limitRequested: true))
        let timings = ["thumbkit", "vipsthumbnail", "pillow", "floor-decode"].map {
            BenchRunner.Timing(
                key: "webp-256/png", tool: $0, runs: [BenchMeasurement(wallSeconds: 1, cpuSeconds: 1, peakRSSBytes: 1)],
                outputFolder: "/w/\($0)", failureLog: nil)
        }
        let targets = session.qualityTargets(set: .png, timings: timings)
        #expect(targets.map(\.outputExtension) == ["webp"])
        #expect(
            targets.first?.outputFolders == [
                "thumbkit": "/w/thumbkit", "vipsthumbnail": "/w/vipsthumbnail", "pillow": "/w/pillow",
            ])
    }

    /// A WebP output is decoded and scored like a JPEG one: lossy with alpha, against the same
    /// reference; a WebP of another picture scores low, and a file that is not WebP is unreadable.
    @Test func aWebPOutputIsDecodedAndScoredAgainstTheReference() throws {
        let workspace = try TestWorkspace()
        var picture = PixelBuffer(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 { picture[x, y] = RGBA(UInt8(x * 4), UInt8(y * 5), 128, UInt8(255 - y)) }
        }
        let webp = try ImageEncoders.encode(picture, options: EncodeOptions(format: .webp, quality: 80))
        let good = try workspace.write("good.webp", webp)
        let flipped = try ImageEncoders.encode(
            picture.applying(.down), options: EncodeOptions(format: .webp, quality: 80))
        let wrong = try workspace.write("wrong.webp", flipped)
        let broken = try workspace.write("broken.webp", Array(webp.prefix(40)))

        let score = BenchQuality.score(output: good, reference: picture, linear: nil)
        #expect(score.ssim.count == 1 && score.unreadable.isEmpty && score.sizeMismatches == 0)
        #expect(score.ssim.allSatisfy { $0 > 0.95 }, "\(score.ssim)")
        let other = BenchQuality.score(output: wrong, reference: picture, linear: nil)
        #expect(other.ssim.allSatisfy { $0 < 0.9 }, "\(other.ssim)")
        let unreadable = BenchQuality.score(output: broken, reference: picture, linear: nil)
        #expect(unreadable.ssim.isEmpty && unreadable.unreadable.count == 1)
        let small = BenchQuality.score(output: good, reference: PixelBuffer(width: 32, height: 24), linear: nil)
        #expect(small.sizeMismatches == 1)
    }
}
