// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumb -s` boxes that no input could be made into within the limits are usage errors
/// (exit 2) before any file is read; an output too big for one input fails that file only
/// (issue 12, items 11 and 14); a height-only size (item 29); colour-profile warnings are
/// never fatal, not even with `--fail-on warning` (item 22).
struct ThumbBoxLimitTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ argv: [String]) async -> Run {
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(argv, commands: ThumbKitCommands.all, stdout: out, stderr: err)
        return Run(status: status, stdout: out.text, stderr: err.text)
    }

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "thumb-box-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(arguments: [
        ["-s", "60000"],
        ["-s", "20000x20000"],
        ["-s", "9223372036854775807x1"],
        ["-s", "4611686018427387904x2"],
        ["-s", "70000x", "--fit", "fit"],
        ["-s", "x70000", "--fit", "fit"],
        ["-s", "30000x10", "--scales", "1,3"],
        ["-s", "100x100", "--max-dimension", "50"],
        [
            "-s", "4611686018427387904x2", "--scales", "2", "--max-dimension", "9223372036854775807",
            "--max-pixels", "9223372036854775807",
        ],
    ])
    func boxesOverTheLimitsAreUsageErrors(_ argv: [String]) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try CompareCommandTests.writePNG(
            PixelBuffer(width: 8, height: 6, fill: RGBA(9, 99, 199)), in: folder, name: "in.png")
        let result = await Self.run(["thumb"] + argv + ["-o", folder + "/%s-out.png", input])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--size"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/in-out.png"))
    }

    @Test func anOutputTooBigForOneInputFailsThatFileAndTheBatchGoesOn() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tall = try CompareCommandTests.writePNG(
            PixelBuffer(width: 1, height: 65_500, fill: RGBA(9, 99, 199)), in: folder, name: "tall.png")
        let wide = try CompareCommandTests.writePNG(
            PixelBuffer(width: 64, height: 48, fill: RGBA(9, 99, 199)), in: folder, name: "wide.png")
        let result = await Self.run(["thumb", "-s", "720x", "--fit", "fit", "-o", folder + "/%s-out.png", tall, wide])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("tall.png: output 153x10000000 exceeds the dimension limit") == true)
        #expect(!FileManager.default.fileExists(atPath: folder + "/tall-out.png"))
        let header = try ImageDecoders.readHeader(try FileIO.read(folder + "/wide-out.png"), path: "wide-out.png")
        #expect(header.width == 720 && header.height == 540)
    }

    @Test func aHeightOnlySizeFitsTheHeight() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try CompareCommandTests.writePNG(
            PixelBuffer(width: 64, height: 48, fill: RGBA(9, 99, 199)), in: folder, name: "in.png")
        let result = await Self.run(["thumb", "-s", "x24", "--fit", "fit", "-o", folder + "/%s-small.png", input])
        #expect(result.status == 0, "\(result.stderr)")
        let header = try ImageDecoders.readHeader(try FileIO.read(folder + "/in-small.png"), path: "in-small.png")
        #expect(header.width == 32 && header.height == 24)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: ["chelsea.png", "astronaut.png"])
    func aColourProfileWarningIsNotFatalWithFailOnWarning(_ name: String) async throws {
        guard TestCorpus.requireCorpus() else { return }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = TestCorpus.url(for: "photos/" + name).path
        let result = await Self.run([
            "thumb", "--fail-on", "warning", "--verbose", "-s", "32", "-o", folder + "/%s.jpg", input,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: \(input): iCCP: known incorrect sRGB profile"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/" + name.dropLast(4) + ".jpg"))
    }

    /// vipsthumbnail prints nothing for it: without --verbose, no line and no warning counted.
    @Test(.needsCorpus, .tags(.corpus), arguments: ["chelsea.png", "astronaut.png"])
    func aColourProfileWarningIsShownOnlyWithVerboseAndNeverCounted(_ name: String) async throws {
        guard TestCorpus.requireCorpus() else { return }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = TestCorpus.url(for: "photos/" + name).path
        let quiet = await Self.run(["thumb", "-s", "32", "-o", folder + "/%s.jpg", input])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout.hasPrefix("1 file: 1 succeeded, 0 failed; "), "\(quiet.stdout)")
        let verbose = await Self.run(["thumb", "--verbose", "-s", "32", "-o", folder + "/%s.jpg", input])
        #expect(verbose.stderr.contains("iCCP: known incorrect sRGB profile"))
        #expect(verbose.stdout.hasPrefix("1 file: 1 succeeded, 0 failed; "), "\(verbose.stdout)")
    }
}
