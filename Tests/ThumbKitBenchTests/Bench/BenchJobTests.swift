// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

struct BenchJobTests {
    /// A corpus that exists only as headers: a 4000×3000 and an 800×600 JPEG, a PNG.
    static let corpus = BenchCorpus(
        root: "/c",
        sets: [
            .jpeg: [
                BenchCorpus.File(path: "/c/jpeg/a.jpg", header: ImageHeader(format: .jpeg, width: 4000, height: 3000)),
                BenchCorpus.File(path: "/c/jpeg/b.jpg", header: ImageHeader(format: .jpeg, width: 800, height: 600)),
            ],
            .png: [
                BenchCorpus.File(path: "/c/png/p.png", header: ImageHeader(format: .png, width: 1000, height: 1000))
            ],
        ])

    static let programs = BenchPrograms(
        thumbkit: "/bin/thumbkit", python: "/usr/bin/python3", pillowScript: "/s/pillow_thumb.py")

    private func invocations(_ job: BenchJob, _ tool: BenchTool, _ set: BenchImageSet) -> [BenchInvocation]? {
        job.workload(for: tool, set: set, corpus: Self.corpus, output: "/o", parallel: 2, programs: Self.programs)?
            .invocations
    }

    struct Row: Sendable, CustomStringConvertible {
        let job: BenchJob
        let tool: BenchTool
        let set: BenchImageSet
        let expected: [[String]]?
        var description: String { "\(job.name) \(tool.rawValue) \(set.rawValue)" }
    }

    static let rows: [Row] = [
        Row(
            job: .bugThumb, tool: .thumbkit, set: .jpeg,
            expected: [
                [
                    "/bin/thumbkit", "thumb", "-s", "88x88", "--fit", "fill", "-q", "85", "-j", "2", "-o", "/o/%s.jpg",
                    "/c/jpeg/a.jpg", "/c/jpeg/b.jpg",
                ]
            ]),
        Row(
            job: .fit256, tool: .thumbkit, set: .png,
            expected: [
                [
                    "/bin/thumbkit", "thumb", "-s", "256x256", "--fit", "fit", "-j", "2", "-o", "/o/%s.png",
                    "/c/png/p.png",
                ]
            ]),
        Row(
            job: .sharpJPEG, tool: .thumbkit, set: .jpeg,
            expected: [
                [
                    "/bin/thumbkit", "thumb", "-s", "720x", "--fit", "fit", "-q", "80", "-j", "2", "-o", "/o/%s.jpg",
                    "/c/jpeg/a.jpg", "/c/jpeg/b.jpg",
                ]
            ]),
        Row(
            job: .bugThumb, tool: .vipsthumbnail, set: .png,
            expected: [
                [
                    "vipsthumbnail", "--size", "88x88", "--smartcrop", "centre", "-o",
                    "/o/%s.jpg[Q=85,strip,background=255]",
                    "/c/png/p.png",
                ]
            ]),
        Row(
            job: .fit256, tool: .vipsthumbnail, set: .png,
            expected: [
                ["vipsthumbnail", "--size", "256x256", "-o", "/o/%s.png[strip]", "/c/png/p.png"]
            ]),
        Row(
            job: .sharpJPEG, tool: .vipsthumbnail, set: .jpeg,
            expected: [
                ["vipsthumbnail", "--size", "720x", "-o", "/o/%s.jpg[Q=80,strip]", "/c/jpeg/a.jpg", "/c/jpeg/b.jpg"]
            ]),
        Row(
            job: .bugThumb, tool: .imagemagickHint, set: .jpeg,
            expected: [
                [
                    "mogrify", "-path", "/o", "-define", "jpeg:size=176x176", "-thumbnail", "88x88^", "-gravity",
                    "center",
                    "-extent", "88x88", "-background", "white", "-alpha", "remove", "-quality", "85",
                    "-sampling-factor", "2x2", "-format", "jpg",
                    "/c/jpeg/a.jpg",
                ],
                [
                    "mogrify", "-path", "/o", "-define", "jpeg:size=176x176", "-thumbnail", "88x88^", "-gravity",
                    "center",
                    "-extent", "88x88", "-background", "white", "-alpha", "remove", "-quality", "85",
                    "-sampling-factor", "2x2", "-format", "jpg",
                    "/c/jpeg/b.jpg",
                ],
            ]),
        Row(job: .bugThumb, tool: .imagemagickHint, set: .png, expected: nil),
        Row(
            job: .fit256, tool: .imagemagick, set: .png,
            expected: [
                ["mogrify", "-path", "/o", "-thumbnail", "256x256", "-format", "png", "/c/png/p.png"]
            ]),
        Row(
            job: .sharpJPEG, tool: .imagemagick, set: .jpeg,
            expected: [
                [
                    "mogrify", "-path", "/o", "-filter", "Lanczos", "-resize", "720x", "-strip", "-quality", "80",
                    "-sampling-factor", "2x2",
                    "-format",
                    "jpg", "/c/jpeg/a.jpg",
                ],
                [
                    "mogrify", "-path", "/o", "-filter", "Lanczos", "-resize", "720x", "-strip", "-quality", "80",
                    "-sampling-factor", "2x2",
                    "-format",
                    "jpg", "/c/jpeg/b.jpg",
                ],
            ]),
        Row(
            job: .sharpJPEG, tool: .graphicsmagick, set: .jpeg,
            expected: [
                [
                    "gm", "mogrify", "-output-directory", "/o", "-size", "1440x1440", "-filter", "Lanczos", "-resize",
                    "720x",
                    "+profile", "*", "-quality", "80", "-sampling-factor", "2x2", "-format", "jpg", "a.jpg",
                ],
                [
                    "gm", "mogrify", "-output-directory", "/o", "-size", "1440x1440", "-filter", "Lanczos", "-resize",
                    "720x",
                    "+profile", "*", "-quality", "80", "-sampling-factor", "2x2", "-format", "jpg", "b.jpg",
                ],
            ]),
        Row(
            job: .bugThumb, tool: .pillow, set: .jpeg,
            expected: [
                [
                    "/usr/bin/python3", "/s/pillow_thumb.py", "--size", "88x88", "--mode", "fill", "--quality", "85",
                    "--jobs", "2",
                    "--out", "/o", "/c/jpeg/a.jpg", "/c/jpeg/b.jpg",
                ]
            ]),
        Row(
            job: .fit256, tool: .pillow, set: .png,
            expected: [
                [
                    "/usr/bin/python3", "/s/pillow_thumb.py", "--size", "256x256", "--mode", "fit", "--format", "png",
                    "--jobs",
                    "2", "--out", "/o", "/c/png/p.png",
                ]
            ]),
        Row(
            job: .sharpJPEG, tool: .pillow, set: .jpeg,
            expected: [
                [
                    "/usr/bin/python3", "/s/pillow_thumb.py", "--width", "720", "--mode", "fit", "--quality", "80",
                    "--jobs", "2",
                    "--out", "/o", "/c/jpeg/a.jpg", "/c/jpeg/b.jpg",
                ]
            ]),
        // djpeg decodes each file at the scale thumbkit picks: 720 of 4000 with a 2× margin is
        // 0.36 → 3/8; 720 of 800 needs the full size.
        Row(
            job: .sharpJPEG, tool: .djpegFloor, set: .jpeg,
            expected: [
                ["djpeg", "-scale", "3/8", "-outfile", "/dev/null", "/c/jpeg/a.jpg"],
                ["djpeg", "-scale", "8/8", "-outfile", "/dev/null", "/c/jpeg/b.jpg"],
            ]),
        Row(
            job: .bugThumb, tool: .djpegFloor, set: .jpeg,
            expected: [
                ["djpeg", "-scale", "1/8", "-outfile", "/dev/null", "/c/jpeg/a.jpg"],
                ["djpeg", "-scale", "3/8", "-outfile", "/dev/null", "/c/jpeg/b.jpg"],
            ]),
        Row(job: .fit256, tool: .djpegFloor, set: .png, expected: nil),
        Row(
            job: .fit256, tool: .decodeFloor, set: .png,
            expected: [
                ["/bin/thumbkit", "bench", "decode", "--job", "fit-256", "-j", "2", "/c/png/p.png"]
            ]),
        Row(job: .sharpJPEG, tool: .thumbkit, set: .png, expected: nil),
    ]

    @Test(arguments: rows)
    func eachToolGetsItsVerifiedCommandLine(row: Row) {
        let got = invocations(row.job, row.tool, row.set)
        #expect(got?.map(\.arguments) == row.expected)
    }

    @Test func graphicsMagickRunsInsideTheSetFolderAndTheOthersWhereTheyAre() throws {
        let gm = try #require(invocations(.bugThumb, .graphicsmagick, .jpeg))
        #expect(gm.allSatisfy { $0.workingDirectory == "/c/jpeg" })
        let vips = try #require(invocations(.bugThumb, .vipsthumbnail, .jpeg))
        #expect(vips.allSatisfy { $0.workingDirectory == nil })
    }

    @Test func splitToolsRunOneLanePerJobAndSingleToolsOne() throws {
        let split = try #require(
            BenchJob.bugThumb.workload(
                for: .imagemagick, set: .jpeg, corpus: Self.corpus, output: "/o", parallel: 2, programs: Self.programs))
        #expect(split.lanes == 2)
        let single = try #require(
            BenchJob.bugThumb.workload(
                for: .thumbkit, set: .jpeg, corpus: Self.corpus, output: "/o", parallel: 2, programs: Self.programs))
        #expect(single.lanes == 1 && single.invocations.count == 1)
    }

    @Test(arguments: [(5, 2, [2, 3]), (1, 2, [1]), (7, 3, [2, 2, 3]), (4, 4, [1, 1, 1, 1])])
    func aFileListIsSplitIntoNearlyEqualContiguousParts(count: Int, parts: Int, sizes: [Int]) {
        let split = BenchCommandTemplate.split(Array(0..<count), into: parts)
        #expect(split.map(\.count) == sizes)
        #expect(split.flatMap { $0 } == Array(0..<count))
    }

    @Test func theIconsJobIsAThumbKitOnlyCatalogBuildOfItsOwnRunFolder() throws {
        let icons = try #require(BenchJob.named("icons"))
        #expect(icons.isEnabled && icons.isCatalogBuild && icons.sets.isEmpty)
        #expect(BenchJob.enabled.map(\.name) == ["bug-thumb", "fit-256", "webp-256", "sharp-jpeg", "icons"])
        #expect(icons.resize == nil)
        // It runs on no corpus set, and no peer or floor builds a catalog.
        for set in BenchImageSet.allCases {
            #expect(icons.template(for: .thumbkit, set: set) == nil)
            #expect(
                icons.workload(
                    for: .thumbkit, set: set, corpus: Self.corpus, output: "/o", parallel: 2, programs: Self.programs)
                    == nil)
        }
        for tool in BenchTool.allCases where tool != .thumbkit {
            #expect(icons.catalogTemplate(for: tool) == nil, "\(tool)")
        }
        #expect(BenchJob.bugThumb.catalogTemplate(for: .thumbkit) == nil)
        let ours = try #require(
            icons.catalogWorkload(for: .thumbkit, output: "/w/run-1", parallel: 2, programs: Self.programs))
        #expect(ours.lanes == 1)
        #expect(
            ours.invocations.map(\.arguments) == [
                [
                    "/bin/thumbkit", "build", "--catalog", "/w/run-1/catalog.sqlite", "--out", "/w/run-1/build", "-j",
                    "2", "--json",
                ]
            ])
    }

    @Test func outputFormatsFollowTheJob() {
        #expect(BenchJob.bugThumb.outputFormat(for: .png) == .jpeg)
        #expect(BenchJob.fit256.outputFormat(for: .png) == .png)
        #expect(BenchJob.fit256.outputFormat(for: .jpeg) == .jpeg)
        #expect(BenchJob.sharpJPEG.resize == ResizeOptions(width: 720, height: BenchJob.anyHeight, mode: .fit))
    }

    @Test func invocationsPrintAsAShellWouldQuoteThem() {
        let invocation = BenchInvocation(
            ["gm", "mogrify", "-thumbnail", "88x88^", "+profile", "*", "it's.jpg"], workingDirectory: "/c/jpeg")
        #expect(invocation.commandLine == "(cd /c/jpeg && gm mogrify -thumbnail '88x88^' +profile '*' 'it'\\''s.jpg')")
    }
}
