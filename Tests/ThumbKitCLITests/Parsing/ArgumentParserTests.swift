// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCLI

/// One argv row with a label that names it in test output.
struct ArgvRow<Expected: Sendable>: Sendable, CustomTestStringConvertible {
    let label: String
    let argv: [String]
    let expected: Expected

    init(_ label: String, _ argv: [String], _ expected: Expected) {
        self.label = label
        self.argv = argv
        self.expected = expected
    }

    var testDescription: String { label }
}

struct ArgumentParserTests {
    static let sizeSpellings: [ArgvRow<String>] = [
        ArgvRow("long then value", ["thumb", "--size", "44x44", "a.jpg"], "44x44"),
        ArgvRow("long with equals", ["thumb", "--size=44x44", "a.jpg"], "44x44"),
        ArgvRow("short then value", ["thumb", "-s", "44x44", "a.jpg"], "44x44"),
        ArgvRow("short glued", ["thumb", "-s44x44", "a.jpg"], "44x44"),
        ArgvRow("short with equals", ["thumb", "-s=44x44", "a.jpg"], "44x44"),
        ArgvRow("after bundled flags", ["thumb", "-lvs44x44", "a.jpg"], "44x44"),
        ArgvRow("after the positional", ["thumb", "a.jpg", "--size", "44x44"], "44x44"),
        ArgvRow("equals inside the value", ["thumb", "--size=a=b", "a.jpg"], "a=b"),
        ArgvRow("empty with equals", ["thumb", "--size=", "a.jpg"], ""),
        ArgvRow("absent gives the default", ["thumb", "a.jpg"], "88x88"),
    ]

    @Test(arguments: sizeSpellings)
    func everySpellingOfAValueOptionGivesTheSameValue(row: ArgvRow<String>) throws {
        let parsed = try Sample.parse(row.argv)
        #expect(parsed.value("size") == row.expected)
        #expect(parsed.arguments("input") == ["a.jpg"])
    }

    static let negativeValues: [ArgvRow<String>] = [
        ArgvRow("long then negative", ["thumb", "--offset", "-5", "a.jpg"], "-5"),
        ArgvRow("long equals negative", ["thumb", "--offset=-5", "a.jpg"], "-5"),
        ArgvRow("short then negative", ["thumb", "-q", "-1", "a.jpg"], "-1"),
        ArgvRow("dash-h as a value", ["thumb", "--offset", "-h", "a.jpg"], "-h"),
        ArgvRow("lone dash as a value", ["thumb", "--offset", "-", "a.jpg"], "-"),
    ]

    @Test(arguments: negativeValues)
    func aValueOptionTakesTheNextTokenEvenWhenItStartsWithOneDash(row: ArgvRow<String>) throws {
        let parsed = try Sample.parse(row.argv)
        let option = row.argv.contains("-q") ? "quality" : "offset"
        #expect(parsed.value(option) == row.expected)
        #expect(parsed.positionals == ["a.jpg"])
    }

    static let usageErrors: [ArgvRow<UsageError>] = [
        ArgvRow("unknown long", ["thumb", "--foo", "a.jpg"], .unknownOption("--foo")),
        ArgvRow("unknown long with value", ["thumb", "--foo=3", "a.jpg"], .unknownOption("--foo")),
        ArgvRow("unknown short", ["thumb", "-x", "a.jpg"], .unknownOption("-x")),
        ArgvRow("unknown letter in a bundle", ["thumb", "-lx", "a.jpg"], .unknownOption("-x")),
        ArgvRow("value at the end", ["thumb", "a.jpg", "--size"], .missingValue(option: "--size")),
        ArgvRow("short value at the end", ["thumb", "a.jpg", "-s"], .missingValue(option: "--size")),
        ArgvRow("long option as value", ["thumb", "--output", "--linear", "a.jpg"], .missingValue(option: "--output")),
        ArgvRow("terminator as value", ["thumb", "--output", "--", "a.jpg"], .missingValue(option: "--output")),
        ArgvRow(
            "value for a flag", ["thumb", "--linear=yes", "a.jpg"],
            .invalidValue(option: "--linear", value: "yes", reason: "the option takes no value")),
        ArgvRow(
            "choice not allowed", ["thumb", "--fit", "crop", "a.jpg"],
            .invalidValue(option: "--fit", value: "crop", reason: "expected one of fill, fit, pad, stretch")),
        ArgvRow(
            "choice not allowed with equals", ["thumb", "--fit=Fill", "a.jpg"],
            .invalidValue(option: "--fit", value: "Fill", reason: "expected one of fill, fit, pad, stretch")),
        ArgvRow("variadic required but absent", ["thumb", "--linear"], .missingArgument("input")),
        ArgvRow("second required positional absent", ["copy", "a.jpg"], .missingArgument("destination")),
        ArgvRow("no positionals at all", ["copy"], .missingArgument("source")),
        ArgvRow("one positional too many", ["copy", "a", "b", "c", "d"], .unexpectedArgument("d")),
        ArgvRow("unknown subcommand", ["resize", "a.jpg"], .unknownCommand("resize")),
        ArgvRow("unknown nested subcommand", ["catalog", "drop"], .unknownCommand("drop")),
        ArgvRow("no subcommand", [], .missingSubcommand(command: "thumbkit")),
        ArgvRow("group without subcommand", ["catalog"], .missingSubcommand(command: "thumbkit catalog")),
        ArgvRow("group option before subcommand", ["--version", "thumb"], .unexpectedArgument("thumb")),
        ArgvRow("leaf option on a group", ["catalog", "--limit", "3"], .unknownOption("--limit")),
        ArgvRow("help for an unknown command", ["help", "resize"], .unknownCommand("resize")),
        ArgvRow("help below a leaf", ["help", "thumb", "extra"], .unexpectedArgument("extra")),
        ArgvRow("nested leaf extra argument", ["catalog", "list", "a", "b"], .unexpectedArgument("b")),
    ]

    @Test(arguments: usageErrors)
    func aBadCommandLineThrowsTheUsageErrorThatQuotesTheToken(row: ArgvRow<UsageError>) {
        #expect(throws: row.expected) { try Sample.parser.parse(row.argv) }
    }

    @Test func everythingAfterTheTerminatorIsPositional() throws {
        let parsed = try Sample.parse(["thumb", "-l", "--", "--size", "-h", "--", "a.jpg"])
        #expect(parsed.arguments("input") == ["--size", "-h", "--", "a.jpg"])
        #expect(parsed.flag("linear"))
        #expect(parsed.value("size") == "88x88")
        #expect(!parsed.isPresent("size"))
    }

    @Test func aLoneDashAndANegativeNumberArePositionals() throws {
        let parsed = try Sample.parse(["copy", "-", "-12.5"])
        #expect(parsed.argument("source") == "-")
        #expect(parsed.argument("destination") == "-12.5")
        #expect(parsed.argument("note") == nil)
    }

    @Test func repeatedOptionsKeepEveryValueInOrder() throws {
        let parsed = try Sample.parse(["thumb", "-j", "small", "a.jpg", "--job=large", "-jicon", "--job", "-x"])
        #expect(parsed.values("job") == ["small", "large", "icon", "-x"])
        #expect(parsed.positionals == ["a.jpg"])
    }

    @Test func anAbsentRepeatedOptionHasNoValues() throws {
        let parsed = try Sample.parse(["thumb", "a.jpg"])
        #expect(parsed.values("job").isEmpty)
        #expect(!parsed.isPresent("job"))
    }

    @Test func aSingleValueOptionGivenTwiceKeepsTheLastValue() throws {
        let parsed = try Sample.parse(["thumb", "-q", "70", "a.jpg", "--quality=90"])
        #expect(parsed.value("quality") == "90")
        #expect(parsed.values("quality") == ["90"])
        #expect(parsed.isPresent("quality"))
    }

    @Test func bundledFlagsAreCountedOneByOne() throws {
        let parsed = try Sample.parse(["thumb", "-vlv", "a.jpg", "-v"])
        #expect(parsed.flag("linear"))
        #expect(parsed.flagCount("verbose") == 3)
        #expect(!parsed.flag("json"))
    }

    @Test func anAllowedChoiceIsAcceptedWithEitherSpelling() throws {
        #expect(try Sample.parse(["thumb", "--fit", "pad", "a.jpg"]).value("fit") == "pad")
        #expect(try Sample.parse(["thumb", "--fit=stretch", "a.jpg"]).value("fit") == "stretch")
        #expect(try Sample.parse(["thumb", "a.jpg"]).value("fit") == "fill")
    }

    static let helpRequests: [ArgvRow<String>] = [
        ArgvRow("root long", ["--help"], "thumbkit"),
        ArgvRow("root short", ["-h"], "thumbkit"),
        ArgvRow("help word alone", ["help"], "thumbkit"),
        ArgvRow("leaf long", ["thumb", "--help"], "thumbkit thumb"),
        ArgvRow("leaf short after values", ["thumb", "-s", "44", "a.jpg", "-h"], "thumbkit thumb"),
        ArgvRow("short help inside a bundle", ["thumb", "-lh"], "thumbkit thumb"),
        ArgvRow("help wins over an earlier error", ["thumb", "--bogus", "--help"], "thumbkit thumb"),
        ArgvRow("help wins over a missing argument", ["copy", "-h"], "thumbkit copy"),
        ArgvRow("help word for a leaf", ["help", "thumb"], "thumbkit thumb"),
        ArgvRow("help word for a nested leaf", ["help", "catalog", "import"], "thumbkit catalog import"),
        ArgvRow("help word inside a group", ["catalog", "help", "list"], "thumbkit catalog list"),
        ArgvRow("group long", ["catalog", "--help"], "thumbkit catalog"),
        ArgvRow("nested leaf short", ["catalog", "import", "-h"], "thumbkit catalog import"),
    ]

    @Test(arguments: helpRequests)
    func helpRequestsNameTheCommandReachedSoFar(row: ArgvRow<String>) throws {
        let outcome = try Sample.parser.parse(row.argv)
        guard case .help(let spec, let commandName) = outcome else {
            Issue.record("expected help, got \(outcome)")
            return
        }
        #expect(commandName == row.expected)
        #expect(spec.name == row.expected.split(separator: " ").last.map(String.init))
    }

    @Test func helpAfterTheTerminatorIsAnInputName() throws {
        let parsed = try Sample.parse(["thumb", "--", "-h", "--help"])
        #expect(parsed.arguments("input") == ["-h", "--help"])
    }

    @Test func aSubcommandReceivesTheRestOfTheLine() throws {
        let parsed = try Sample.parse(["catalog", "import", "-n", "photos", "--", "-odd"])
        #expect(parsed.commandPath == ["catalog", "import"])
        #expect(parsed.commandName == "thumbkit catalog import")
        #expect(parsed.spec == Sample.importCommand)
        #expect(parsed.flag("dry-run"))
        #expect(parsed.arguments("path") == ["photos", "-odd"])
    }

    @Test func anOptionalPositionalMayBeLeftOut() throws {
        let parsed = try Sample.parse(["catalog", "list"])
        #expect(parsed.argument("pattern") == nil)
        #expect(parsed.value("limit") == "20")
        let given = try Sample.parse(["catalog", "list", "beach", "--limit", "5"])
        #expect(given.argument("pattern") == "beach")
        #expect(given.value("limit") == "5")
    }

    @Test func theRootRunsOnlyWithItsOwnFlag() throws {
        let parsed = try Sample.parse(["--version"])
        #expect(parsed.commandPath.isEmpty)
        #expect(parsed.commandName == "thumbkit")
        #expect(parsed.flag("version"))
    }

    static let messages: [ArgvRow<String>] = [
        ArgvRow("unknown option", ["thumb", "--foo"], "unknown option '--foo'"),
        ArgvRow("missing value", ["thumb", "--size"], "missing value for option '--size'"),
        ArgvRow(
            "invalid choice", ["thumb", "--fit", "x"],
            "invalid value 'x' for option '--fit': expected one of fill, fit, pad, stretch"),
        ArgvRow("extra argument", ["copy", "a", "b", "c", "d"], "unexpected argument 'd'"),
        ArgvRow("missing argument", ["copy"], "missing argument '<source>'"),
        ArgvRow("unknown command", ["resize"], "unknown command 'resize'"),
        ArgvRow("missing subcommand", ["catalog"], "missing subcommand for 'thumbkit catalog'"),
    ]

    @Test(arguments: messages)
    func errorMessagesAreOneLowerCaseLineQuotingTheToken(row: ArgvRow<String>) {
        do {
            _ = try Sample.parser.parse(row.argv)
            Issue.record("expected a usage error")
        } catch {
            #expect(error.description == row.expected)
        }
    }
}
