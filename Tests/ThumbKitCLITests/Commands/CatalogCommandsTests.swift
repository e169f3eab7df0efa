// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitCatalog

@testable import ThumbKitCLI

/// The real specs of the catalog, build, site and demo commands: argv → values, or → the
/// usage error.
struct CatalogCommandsTests {
    static let parser = ArgumentParser(root: CLI.rootSpec(commands: ThumbKitCommands.all))

    static func parse(_ argv: [String]) throws(UsageError) -> ParsedArguments {
        guard case .run(let parsed) = try parser.parse(argv) else {
            throw .validationFailed("expected a command to run, got help for \(argv)")
        }
        return parsed
    }

    /// What a row expects: the command path, then (name, value) pairs where a name is an
    /// option (`--catalog`), a flag (`--atomic`, value "true"/"false") or a positional (`<id>`).
    struct Expected: Sendable {
        let path: [String]
        let values: [(String, String?)]
    }

    static let rows: [ArgvRow<Expected>] = [
        ArgvRow(
            "import with defaults", ["catalog", "import", "a.json"],
            Expected(
                path: ["catalog", "import"],
                values: [("<file>", "a.json"), ("--catalog", "./thumbkit.sqlite"), ("--atomic", "false")])),
        ArgvRow(
            "import atomic into a catalog",
            ["catalog", "import", "--atomic", "a.json", "--catalog=x.sqlite", "--json"],
            Expected(
                path: ["catalog", "import"],
                values: [("<file>", "a.json"), ("--catalog", "x.sqlite"), ("--atomic", "true"), ("--json", "true")])),
        ArgvRow(
            "export to a file", ["catalog", "export", "-o", "e.json"],
            Expected(
                path: ["catalog", "export"], values: [("--output", "e.json"), ("--catalog", "./thumbkit.sqlite")])),
        ArgvRow(
            "export to stdout", ["catalog", "export"],
            Expected(path: ["catalog", "export"], values: [("--output", nil)])),
        ArgvRow(
            "list as JSON", ["catalog", "list", "--json"],
            Expected(path: ["catalog", "list"], values: [("--json", "true")])),
        ArgvRow(
            "show a food", ["catalog", "show", "food:2"],
            Expected(path: ["catalog", "show"], values: [("<id>", "food:2")])),
        ArgvRow(
            "rate with a half", ["catalog", "rate", "3", "3.5", "--out", "o"],
            Expected(
                path: ["catalog", "rate"],
                values: [("<id>", "3"), ("<rating>", "3.5"), ("--out", "o"), ("--no-build", "false")])),
        ArgvRow(
            "rate without building", ["catalog", "rate", "bug:3", "0", "--no-build"],
            Expected(
                path: ["catalog", "rate"], values: [("<id>", "bug:3"), ("<rating>", "0"), ("--no-build", "true")])),
        ArgvRow(
            "set-image with recipes", ["catalog", "set-image", "2", "new.png", "--recipes", "r.json"],
            Expected(
                path: ["catalog", "set-image"],
                values: [("<id>", "2"), ("<path>", "new.png"), ("--recipes", "r.json"), ("--out", "./thumbkit-out")])),
        ArgvRow(
            "build with defaults", ["build"],
            Expected(
                path: ["build"],
                values: [
                    ("--catalog", "./thumbkit.sqlite"), ("--out", "./thumbkit-out"), ("--jobs", nil),
                    ("--recipes", nil),
                    ("--json", "false"),
                ])),
        ArgvRow(
            "build with everything",
            ["build", "--catalog", "c.sqlite", "--out=o", "--recipes", "r.json", "-j", "4", "--json"],
            Expected(
                path: ["build"],
                values: [
                    ("--catalog", "c.sqlite"), ("--out", "o"), ("--recipes", "r.json"), ("--jobs", "4"),
                    ("--json", "true"),
                ])),
        ArgvRow(
            "site", ["site", "web", "--out", "o"],
            Expected(
                path: ["site"], values: [("<site-dir>", "web"), ("--out", "o"), ("--catalog", "./thumbkit.sqlite")])),
        ArgvRow("demo", ["demo", "d"], Expected(path: ["demo"], values: [("<dir>", "d")])),
    ]

    @Test(arguments: rows)
    func eachCommandLineParsesToItsValues(row: ArgvRow<Expected>) throws {
        let parsed = try Self.parse(row.argv)
        #expect(parsed.commandPath == row.expected.path)
        for (name, value) in row.expected.values {
            if name.hasPrefix("<") {
                #expect(parsed.argument(String(name.dropFirst().dropLast())) == value, "\(name)")
            } else if value == "true" || value == "false" {
                #expect(parsed.flag(String(name.dropFirst(2))) == (value == "true"), "\(name)")
            } else {
                #expect(parsed.value(String(name.dropFirst(2))) == value, "\(name)")
            }
        }
    }

    static let usageErrors: [ArgvRow<UsageError>] = [
        ArgvRow("import without a file", ["catalog", "import"], .missingArgument("file")),
        ArgvRow("import of two files", ["catalog", "import", "a.json", "b.json"], .unexpectedArgument("b.json")),
        ArgvRow("rate without a rating", ["catalog", "rate", "3"], .missingArgument("rating")),
        ArgvRow("show without an id", ["catalog", "show"], .missingArgument("id")),
        ArgvRow("set-image without a path", ["catalog", "set-image", "3"], .missingArgument("path")),
        ArgvRow("unknown catalog command", ["catalog", "drop", "3"], .unknownCommand("drop")),
        ArgvRow("build with an argument", ["build", "extra"], .unexpectedArgument("extra")),
        ArgvRow("build with -j at the end", ["build", "-j"], .missingValue(option: "--jobs")),
        ArgvRow("build with --atomic", ["build", "--atomic"], .unknownOption("--atomic")),
        ArgvRow("site without a folder", ["site"], .missingArgument("site-dir")),
        ArgvRow("export with a stray json flag", ["catalog", "export", "--json"], .unknownOption("--json")),
    ]

    @Test(arguments: usageErrors)
    func aBadCommandLineIsTheUsageErrorThatQuotesTheToken(row: ArgvRow<UsageError>) {
        #expect(throws: row.expected) { try Self.parser.parse(row.argv) }
    }

    @Test(arguments: [
        ("3", RecordRef.bug(3)), ("bug:3", .bug(3)), ("food:12", .food(12)), ("FOOD:2", .food(2)),
    ])
    func aRecordIsNamedByNumberOrKindAndNumber(text: String, expected: RecordRef) throws {
        #expect(try CatalogOptions.record(text) == expected)
    }

    @Test(arguments: ["", "x", "0", "-1", "cat:3", "bug:", "food:1.5", "3 ", "٣"])
    func aBadRecordNameIsAUsageError(text: String) {
        #expect(throws: UsageError.self) { try CatalogOptions.record(text) }
    }

    @Test func everyNewCommandHasHelpAndIsListedAtTheTop() throws {
        let root = HelpFormatter().help(for: Self.parser.root, commandName: "thumbkit")
        for name in ["catalog", "build", "site", "demo"] { #expect(root.contains("  \(name) "), "\(name)") }
        for argv in [
            ["catalog", "--help"], ["catalog", "import", "--help"], ["catalog", "export", "-h"],
            ["catalog", "list", "--help"],
            ["catalog", "show", "--help"], ["catalog", "rate", "--help"], ["catalog", "set-image", "--help"],
            ["build", "--help"], ["site", "--help"], ["demo", "--help"],
        ] {
            guard case .help(let spec, let name) = try Self.parser.parse(argv) else {
                Issue.record("\(argv) is not help")
                continue
            }
            let text = HelpFormatter().help(for: spec, commandName: name)
            #expect(text.hasPrefix("OVERVIEW: ") && text.contains("USAGE: \(name)"), "\(argv)")
        }
    }
}
