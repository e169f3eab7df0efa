// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCLI

/// A runtime error shaped like the engine's: `<path>: <reason>`.
private struct SampleFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(path): \(reason)" }
}

/// Prints what it parsed, reports inputs named `bad*` as failed, and throws for `--offset`
/// values it cannot use.
private enum EchoCommand: Command {
    static let spec = Sample.thumb

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let size = try arguments.size("size")!
        let quality = try arguments.int("quality", in: 1...100)!
        if arguments.value("offset") == "crash" { throw SampleFileError(path: "offset", reason: "gave up") }
        var failures = 0
        for input in arguments.arguments("input") {
            if input.hasPrefix("bad") {
                context.report(SampleFileError(path: input, reason: "not an image"))
                failures += 1
            } else {
                context.progress.update("working on \(input)")
                context.print("\(input) \(size) q\(quality)")
            }
        }
        return ExitCode(failureCount: failures)
    }
}

private enum ImportCommand: Command {
    static let spec = Sample.importCommand

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        context.print("import \(arguments.arguments("path").joined(separator: ",")) dry=\(arguments.flag("dry-run"))")
        return .success
    }
}

private enum ListCommand: Command {
    static let spec = Sample.list

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        struct Row: Encodable {
            let path: String
            let width: Int
        }
        try context.writeJSON([Row(path: "a/b.jpg", width: 88)])
        return .success
    }
}

private enum CatalogGroup: CommandGroup {
    static let spec = CommandSpec(name: "catalog", abstract: "Manage the image catalog.")
    static let subcommands: [any Command.Type] = [ImportCommand.self, ListCommand.self]
}

/// Output of one `CLI.run`, captured.
private struct Run {
    let status: Int32
    let stdout: String
    let stderr: String

    init(_ argv: [String], environment: [String: String] = [:]) async {
        let out = TextOutput()
        let err = TextOutput()
        status = await CLI.run(
            argv, commands: [EchoCommand.self, CatalogGroup.self], stdout: out, stderr: err,
            environment: environment)
        stdout = out.text
        stderr = err.text
    }
}

struct CLITests {
    @Test func versionPrintsTheProgramAndVersionOnStdout() async {
        let run = await Run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "thumbkit \(VersionInfo.version)\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func aSuccessfulRunWritesResultsToStdoutAndExitsZero() async {
        let run = await Run(["thumb", "-s", "44", "a.jpg", "b.png", "-q", "90"])
        #expect(run.status == 0)
        #expect(run.stdout == "a.jpg 44x44 q90\nb.png 44x44 q90\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func aFailedInputIsReportedOnStderrAndExitsOne() async {
        let run = await Run(["thumb", "a.jpg", "bad.jpg"])
        #expect(run.status == 1)
        #expect(run.stdout == "a.jpg 88x88 q85\n")
        #expect(run.stderr == "thumbkit: bad.jpg: not an image\n")
    }

    @Test func theProgressLineIsClearedWhenTheCommandReturns() async {
        let out = TextOutput(capturingAsTerminal: true)
        let err = TextOutput(capturingAsTerminal: true)
        let status = await CLI.run(["thumb", "a.jpg"], commands: [EchoCommand.self], stdout: out, stderr: err)
        #expect(status == 0)
        #expect(out.text == "a.jpg 88x88 q85\n")
        #expect(err.text.hasSuffix("working on a.jpg\r\u{1B}[2K"))
    }

    @Test func aThrownRuntimeErrorIsReportedAndExitsOne() async {
        let run = await Run(["thumb", "--offset", "crash", "a.jpg"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "thumbkit: offset: gave up\n")
    }

    @Test func anUnknownOptionPrintsErrorUsageAndHintOnStderrAndExitsTwo() async {
        let run = await Run(["thumb", "--foo", "a.jpg"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr == """
                thumbkit: error: unknown option '--foo'
                USAGE: thumbkit thumb [<options>] <input> ...
                See 'thumbkit thumb --help'.

                """)
    }

    @Test func aUsageErrorThrownByTheCommandIsTreatedLikeAParseError() async {
        let run = await Run(["thumb", "-q", "0", "a.jpg"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr.hasPrefix(
                "thumbkit: error: invalid value '0' for option '--quality': expected an integer from 1 to 100\n"))
        #expect(run.stderr.hasSuffix("See 'thumbkit thumb --help'.\n"))
    }

    @Test func aGroupWithoutSubcommandIsAUsageErrorWithTheGroupUsage() async {
        let run = await Run(["catalog"])
        #expect(run.status == 2)
        #expect(
            run.stderr == """
                thumbkit: error: missing subcommand for 'thumbkit catalog'
                USAGE: thumbkit catalog <subcommand>
                See 'thumbkit catalog --help'.

                """)
    }

    @Test func noArgumentsAtAllIsAUsageError() async {
        let run = await Run([])
        #expect(run.status == 2)
        #expect(
            run.stderr.hasPrefix("thumbkit: error: missing subcommand for 'thumbkit'\nUSAGE: thumbkit <subcommand>\n"))
    }

    @Test func nestedSubcommandsDispatchToTheirType() async {
        let run = await Run(["catalog", "import", "-n", "x", "y"])
        #expect(run.status == 0)
        #expect(run.stdout == "import x,y dry=true\n")
    }

    @Test func helpGoesToStdoutAndMatchesTheFormatter() async {
        let expected = HelpFormatter().help(for: Sample.thumb, commandName: "thumbkit thumb")
        for argv in [["thumb", "--help"], ["thumb", "-h"], ["help", "thumb"], ["thumb", "--bogus", "-h"]] {
            let run = await Run(argv)
            #expect(run.status == 0, "\(argv)")
            #expect(run.stdout == expected, "\(argv)")
            #expect(run.stderr.isEmpty, "\(argv)")
        }
    }

    @Test func rootHelpListsEveryCommandAndTheVersionFlag() async {
        let run = await Run(["--help"])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                OVERVIEW: Thumbnails, detail images, rating strips and app icons from PNG, JPEG,
                WebP, HEIC and AVIF files.

                USAGE: thumbkit <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  thumb                   Make thumbnails from PNG and JPEG files.
                  catalog                 Manage the image catalog.

                  See 'thumbkit help <subcommand>' for detailed help.

                """)
    }

    @Test func nestedHelpNamesTheFullCommand() async {
        let run = await Run(["help", "catalog", "list"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: thumbkit catalog list [<options>] [<pattern>]\n"))
    }

    @Test func jsonOutputIsPrettyWithSortedKeysOnStdout() async {
        let run = await Run(["catalog", "list"])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                [
                  {
                    "path" : "a/b.jpg",
                    "width" : 88
                  }
                ]

                """)
        #expect(run.stderr.isEmpty)
    }

    @Test func theResolvedSpecFillsGroupChildrenFromTheirTypes() {
        #expect(CatalogGroup.resolvedSpec.subcommands.map(\.name) == ["import", "list"])
        #expect(EchoCommand.resolvedSpec == Sample.thumb)
        #expect(CLI.resolve(["catalog", "list"], in: [EchoCommand.self, CatalogGroup.self]) == ListCommand.self)
        #expect(CLI.resolve(["catalog", "drop"], in: [EchoCommand.self, CatalogGroup.self]) == nil)
    }

    @Test(arguments: [(0, ExitCode.success), (1, .failure), (40, .failure)])
    func theExitCodeFollowsTheFailureCount(failures: Int, expected: ExitCode) {
        #expect(ExitCode(failureCount: failures) == expected)
        #expect(ExitCode.usage.rawValue == 2)
    }
}
