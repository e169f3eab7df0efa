// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitCLI

/// The limits option group: one declaration for every command that decodes pictures, and the
/// build applies the limits it is given.
struct LimitOptionsTests {
    typealias Run = CatalogCLITests.Run

    /// The help lines of the four limit options of `command`.
    static func limitLines(_ command: [String]) async -> [String] {
        let help = await Run(command + ["--help"])
        return help.stdout.split(separator: "\n").map(String.init).filter { line in
            let text = line.drop { $0 == " " }
            return ["--max-pixels ", "--max-dimension ", "--max-file-bytes ", "--timeout "].contains {
                text.hasPrefix($0)
            }
        }
    }

    @Test func thumbBuildWorkerAndWatchShowTheSameLimitOptions() async {
        let thumb = await Self.limitLines(["thumb"])
        #expect(thumb.count == 4)
        // The help wraps at 80 columns; read it with the wrapping undone.
        let help = await Run(["thumb", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            help.contains(
                "--max-pixels <n> Refuse images with more pixels. (range: at least 1; default: "
                    + "\(ImageLimits.defaultMaxPixels))"))
        for command in [["build"], ["worker"], ["watch"]] {
            #expect(await Self.limitLines(command) == thumb, "\(command)")
        }
    }

    @Test func theLimitsAreParsedWithTheirRanges() throws {
        let spec = CommandSpec(name: "t", abstract: "", options: LimitOptions.all)
        let parser = ArgumentParser(root: spec)
        guard case .run(let parsed) = try parser.parse(["--max-pixels", "1000", "--timeout", "2.5"]) else {
            Issue.record("expected a run")
            return
        }
        #expect(
            try LimitOptions.limits(parsed)
                == ImageLimits(
                    maxPixels: 1000, maxDimension: ImageLimits.defaultMaxDimension,
                    maxFileBytes: ImageLimits.defaultMaxFileBytes, maxSeconds: 2.5))
        guard case .run(let bad) = try parser.parse(["--max-dimension", "0"]) else {
            Issue.record("expected a run")
            return
        }
        #expect(throws: UsageError.self) { try LimitOptions.limits(bad) }
    }

    @Test(arguments: CatalogBackend.all)
    func aBuildRefusesPicturesOverItsLimitsOneLineEachAndGoesOn(backend: CatalogBackend) async throws {
        let workspace = try CLIWorkspace()
        let scratch = try TestWorkspace()
        let catalog = ["--catalog", try backend.catalog(in: scratch)]
        let paths = catalog + ["--out", workspace.path("out")]
        _ = await Run(["catalog", "import", try workspace.importFile()] + catalog)

        // The three pictures are 48×48: over a limit of 1,000 pixels. The rating strips are not pictures.
        let limited = await Run(["build", "--max-pixels", "1000", "--json"] + paths)
        #expect(limited.status == 1)
        let report = try JSONDecoder().decode(BuildReport.self, from: Data(limited.stdout.utf8))
        #expect(report.failed == 3)
        let lines = limited.stderr.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains("48x48 exceeds the pixel limit of 1000 pixels") })
        #expect(report.made > 0)  // the strips

        let usage = await Run(["build", "--timeout", "-1"] + paths)
        #expect(usage.status == 2)

        // Without the limit everything else is made, and nothing made before is made again.
        let full = await Run(["build", "--json"] + paths)
        #expect(full.status == 0 && full.stderr.isEmpty)
        let second = try JSONDecoder().decode(BuildReport.self, from: Data(full.stdout.utf8))
        #expect(second.failed == 0 && second.upToDate == report.made)
    }
}
