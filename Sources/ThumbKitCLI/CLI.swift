// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// The top-level entry point: parses, prints help, version or usage errors, and dispatches to
/// the selected ``Command``.
///
/// `Sources/thumbkit/main.swift` is just:
///
/// ```swift
/// import ThumbKitCLI
/// await CLI.main()
/// ```
///
/// Exit statuses (``ExitCode``): 0 all ok (and `--help`, `--version`), 1 some input failed,
/// 2 usage error. Usage errors print, on stderr:
///
/// ```
/// thumbkit: error: unknown option '--foo'
/// USAGE: thumbkit thumb [<options>] <input> ...
/// See 'thumbkit thumb --help'.
/// ```
package enum CLI {
    /// The root's one-line overview.
    static let abstract =
        "Thumbnails, detail images, rating strips and app icons from \(ImageFormat.readableNames("and")) files."

    /// The root spec: `thumbkit`, its `--version` flag and every command as a subcommand.
    static func rootSpec(commands: [any Command.Type]) -> CommandSpec {
        CommandSpec(
            name: VersionInfo.programName, abstract: abstract,
            options: [.flag("version", help: "Show the version.")],
            subcommands: commands.map { $0.resolvedSpec })
    }

    /// Runs the process's command line with every command of ``ThumbKitCommands``, then exits:
    /// the `thumbkit` executable's whole job.
    package static func main() async -> Never { await main(commands: ThumbKitCommands.all) }

    /// Runs the process's command line with real stdout, stderr and environment, then exits.
    static func main(commands: [any Command.Type]) async -> Never {
        // Arguments as bytes: a file name that is not UTF-8 must reach the command intact.
        let status = await run(Array(PathBytes.processArguments().dropFirst()), commands: commands)
        exit(status)
    }

    /// Runs one command line (`arguments` without the program name) and returns the exit status.
    /// Tests pass capturing outputs and read them back.
    static func run(
        _ arguments: [String], commands: [any Command.Type],
        stdout: TextOutput = .standardOutput, stderr: TextOutput = .standardError,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Int32 {
        let context = CommandContext(stdout: stdout, stderr: stderr, environment: environment)
        let parser = ArgumentParser(root: rootSpec(commands: commands))
        let outcome: ArgumentParser.Outcome
        do throws(ArgumentParser.Failure) {
            outcome = try parser.parseWithContext(arguments)
        } catch {
            return printUsageError(error.error, spec: error.spec, commandName: error.commandName, context: context)
        }
        switch outcome {
        case .help(let spec, let commandName):
            stdout.write(HelpFormatter().help(for: spec, commandName: commandName))
            return ExitCode.success.rawValue
        case .run(let parsed):
            CatalogOptions.warnAboutPasswords(in: arguments, context: context)
            return await dispatch(parsed, commands: commands, context: context)
        }
    }

    /// Finds the command for `parsed.commandPath` and runs it, mapping thrown errors to exits.
    private static func dispatch(
        _ parsed: ParsedArguments, commands: [any Command.Type], context: CommandContext
    ) async -> Int32 {
        guard !parsed.commandPath.isEmpty else {
            // The root only runs with its own flags, and `--version` is its only one.
            context.stdout.writeLine(VersionInfo.versionLine)
            return ExitCode.success.rawValue
        }
        guard let command = resolve(parsed.commandPath, in: commands) else {
            preconditionFailure("No command type for '\(parsed.commandName)'; the spec tree comes from the types.")
        }
        let result: Result<ExitCode, any Error>
        do {
            try parsed.spec.checkValues(parsed)
            try command.validate(parsed)
            result = .success(try await command.run(parsed, context: context))
        } catch {
            result = .failure(error)
        }
        context.progress.finish()
        switch result {
        case .success(let code):
            return code.rawValue
        case .failure(let error as UsageError):
            return printUsageError(error, spec: parsed.spec, commandName: parsed.commandName, context: context)
        case .failure(let error):
            context.report(error)
            return ExitCode.failure.rawValue
        }
    }

    /// The command type at `path` (`["catalog", "import"]`).
    static func resolve(_ path: [String], in commands: [any Command.Type]) -> (any Command.Type)? {
        var candidates = commands
        var found: (any Command.Type)?
        for name in path {
            guard let match = candidates.first(where: { $0.spec.name == name }) else { return nil }
            found = match
            candidates = match.subcommands
        }
        return found
    }

    /// `thumbkit: error: <error>`, the usage line and `See '<command> --help'.` on stderr; 2.
    private static func printUsageError(
        _ error: UsageError, spec: CommandSpec, commandName: String, context: CommandContext
    ) -> Int32 {
        let usage = HelpFormatter().usage(for: spec, commandName: commandName)
        let hint = Suggestion.line(for: error, in: spec).map { $0 + "\n" } ?? ""
        context.stderr.write(
            "\(context.programName): error: \(error)\n\(hint)\(usage)\nSee '\(commandName) --help'.\n")
        return ExitCode.usage.rawValue
    }
}
