// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKitCLI

/// Typed options: a key's type, range and default in one declaration; every key read once
/// before `run`; `validate` for rules between options.
struct OptionKeyTests {
    static let quality: OptionKey<Int> = .integer("quality", short: "q", in: 1...100, default: 85, help: "Quality.")
    static let jobs: OptionKey<Int?> = .integer("jobs", in: 1...256, help: "Jobs.")
    static let scale: OptionKey<Double> = .number("scale", in: 0.5...4, default: 1, help: "Scale.")
    static let linear: OptionKey<Bool> = .flag("linear", help: "Linear.")
    static let name: OptionKey<String?> = .text("name", help: "Name.")
    static let mode: OptionKey<Mode> = .choice("mode", default: .fast, help: "Mode.")
    static let tags: OptionKey<[String]> = .repeated("tag", help: "Tag.")
    static let twice = quality.map { $0 * 2 }

    enum Mode: String, CaseIterable, Sendable {
        case fast
        case small
    }

    static let spec = CommandSpec(
        name: "t", abstract: "", options: [quality, jobs, scale, linear, name, mode, tags, .flag("plain", help: "P.")])

    static func parse(_ argv: [String]) throws -> ParsedArguments {
        guard case .run(let parsed) = try ArgumentParser(root: spec).parse(argv) else {
            throw UsageError.validationFailed("expected a run")
        }
        return parsed
    }

    @Test func keysReadTheirTypesAndDefaults() throws {
        let absent = try Self.parse([])
        #expect(try absent[Self.quality] == 85)
        #expect(try absent[Self.jobs] == nil)
        #expect(try absent[Self.scale] == 1)
        #expect(try absent[Self.linear] == false)
        #expect(try absent[Self.name] == nil)
        #expect(try absent[Self.mode] == .fast)
        #expect(try absent[Self.tags] == [])
        #expect(!absent.isPresent(Self.quality))

        let given = try Self.parse([
            "-q", "40", "--jobs", "3", "--scale", "2.5", "--linear", "--name", "x", "--mode", "small", "--tag", "a",
            "--tag", "b",
        ])
        #expect(try given[Self.quality] == 40)
        #expect(try given[Self.twice] == 80)
        #expect(try given[Self.jobs] == 3)
        #expect(try given[Self.scale] == 2.5)
        #expect(try given[Self.linear])
        #expect(try given[Self.name] == "x")
        #expect(try given[Self.mode] == .small)
        #expect(try given[Self.tags] == ["a", "b"])
        #expect(given.isPresent(Self.quality))
    }

    @Test(arguments: [
        (["-q", "0"], "invalid value '0' for option '--quality': expected an integer from 1 to 100"),
        (["--jobs", "many"], "invalid value 'many' for option '--jobs': expected an integer from 1 to 256"),
        (["--scale", "9"], "invalid value '9' for option '--scale': expected a number from 0.5 to 4.0"),
    ])
    func outOfRangeValuesAreUsageErrorsNamingTheOption(argv: [String], message: String) throws {
        let parsed = try Self.parse(argv)
        #expect(throws: UsageError.self) { try Self.spec.checkValues(parsed) }
        do {
            try Self.spec.checkValues(parsed)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func helpShowsTheRangeBeforeTheDefault() {
        let help = HelpFormatter(width: 200).help(for: Self.spec, commandName: "t")
        #expect(help.contains("Quality. (range: 1 to 100; default: 85)"))
        #expect(help.contains("Jobs. (range: 1 to 256)"))
        #expect(help.contains("Scale. (range: 0.5 to 4; default: 1)"))
    }

    /// A bad value is refused before `run` even where `run` reads it late: `--_disk-full-after`,
    /// which `thumb` reads only once its inputs are collected, makes it exit 2 before it looks for
    /// its (missing) input.
    @Test func theFrameworkChecksEveryKeyBeforeRun() async {
        let badValue = await CatalogCLITests.Run(["thumb", "--_disk-full-after", "-1", "/nonexistent/a.jpg"])
        #expect(badValue.status == 2)
        #expect(badValue.stderr.contains("invalid value '-1' for option '--_disk-full-after'"), "\(badValue.stderr)")
        #expect(!badValue.stderr.contains("/nonexistent/a.jpg"))
    }

    /// `validate` holds the rules between options: `--lossless` without WebP output is a usage
    /// error before any input is read, and so is `-o -` without `--format`.
    @Test func validateRefusesOptionsThatDisagree() async {
        let lossless = await CatalogCLITests.Run(["thumb", "--lossless", "-o", "%s.jpg", "/nonexistent/a.jpg"])
        #expect(lossless.status == 2)
        #expect(lossless.stderr.contains("--lossless applies only to WebP output"), "\(lossless.stderr)")
        #expect(!lossless.stderr.contains("/nonexistent/a.jpg:"))
        let toStdout = await CatalogCLITests.Run(["thumb", "-o", "-", "/nonexistent/a.jpg"])
        #expect(toStdout.status == 2)
        #expect(toStdout.stderr.contains("writing to stdout needs --format"), "\(toStdout.stderr)")
    }
}
