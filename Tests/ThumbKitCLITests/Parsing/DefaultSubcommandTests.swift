// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCLI

/// A group with a default subcommand (`thumbkit bench` is `thumbkit bench run`).
struct DefaultSubcommandTests {
    static let run = CommandSpec(
        name: "run", abstract: "Run it.", options: [.flag("fast", help: "Faster."), .value("n", help: "How many.")])
    static let show = CommandSpec(
        name: "show", abstract: "Show one.", positionals: [.required("id", help: "Which.")])
    static let open = CommandSpec(
        name: "open", abstract: "Open files.", positionals: [.variadic("file", help: "Files.", required: false)])
    static let root = CommandSpec(
        name: "tool", abstract: "A tool.",
        subcommands: [
            CommandSpec(name: "bench", abstract: "Benchmarks.", subcommands: [run, show], defaultSubcommand: "run"),
            CommandSpec(name: "files", abstract: "Files.", subcommands: [open, show], defaultSubcommand: "open"),
        ])

    static func outcome(_ argv: [String]) throws(UsageError) -> ArgumentParser.Outcome {
        try ArgumentParser(root: root).parse(argv)
    }

    static func parsed(_ argv: [String]) throws -> ParsedArguments {
        guard case .run(let parsed) = try outcome(argv) else { throw UsageError.validationFailed("help") }
        return parsed
    }

    @Test func aLineThatNamesNoSubcommandIsTheDefaults() throws {
        #expect(try Self.parsed(["bench"]).commandPath == ["bench", "run"])
        let options = try Self.parsed(["bench", "--fast", "--n", "3"])
        #expect(options.commandPath == ["bench", "run"] && options.flag("fast") && options.value("n") == "3")
        #expect(try Self.parsed(["bench", "run", "--fast"]).flag("fast"))
        let other = try Self.parsed(["bench", "show", "7"])
        #expect(other.commandPath == ["bench", "show"] && other.argument("id") == "7")
    }

    @Test func aWordIsAMistypedSubcommandUnlessTheDefaultTakesWords() throws {
        #expect(throws: UsageError.unknownCommand("shwo")) { try Self.outcome(["bench", "shwo"]) }
        let files = try Self.parsed(["files", "a.png", "b.png"])
        #expect(files.commandPath == ["files", "open"] && files.arguments("file") == ["a.png", "b.png"])
        #expect(try Self.parsed(["files", "show", "1"]).commandPath == ["files", "show"])
    }

    @Test func helpIsTheGroupsAndListsTheDefault() throws {
        for argv in [["bench", "--help"], ["bench", "-h"], ["bench", "help"]] {
            guard case .help(let spec, let name) = try Self.outcome(argv) else {
                Issue.record("\(argv) did not ask for help")
                continue
            }
            #expect(spec.name == "bench" && name == "tool bench")
        }
        guard case .help(let spec, _) = try Self.outcome(["bench", "run", "--help"]) else {
            Issue.record("no help")
            return
        }
        #expect(spec.name == "run")
        let group = Self.root.subcommand(named: "bench")!
        let text = HelpFormatter().help(for: group, commandName: "tool bench")
        #expect(text.contains("USAGE: tool bench [<subcommand>]"))
        #expect(text.contains("Run it. (default)"))
        #expect(!text.contains("Show one. (default)"))
    }

    @Test func theBenchCommandsAreRealSubcommands() throws {
        let parser = ArgumentParser(root: CLI.rootSpec(commands: ThumbKitCommands.all))
        for (argv, path) in [
            (["bench"], ["bench", "run"]), (["bench", "--peers"], ["bench", "run"]),
            (["bench", "history"], ["bench", "history"]), (["bench", "show", "3"], ["bench", "show"]),
            (["bench", "decode", "--job", "fit-256", "a.jpg"], ["bench", "decode"]),
        ] {
            guard case .run(let parsed) = try parser.parse(argv) else {
                Issue.record("\(argv) asked for help")
                continue
            }
            #expect(parsed.commandPath == path, "\(argv)")
        }
    }
}
