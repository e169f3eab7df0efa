// SPDX-License-Identifier: Apache-2.0
/// A `thumbkit` command: a spec (parsed and rendered as help by the framework) and a `run`.
///
/// One file per command under `Commands/`, as a caseless enum:
///
/// ```swift
/// enum ThumbCommand: Command {
///     static let size: OptionKey<Int> = .integer("size", short: "s", in: 1...16_384, default: 88,
///                                                help: "Target box side.")
///     static let spec = CommandSpec(
///         name: "thumb", abstract: "Make thumbnails.",
///         positionals: [.variadic("input", help: "Image files to read.")],
///         options: [size])
///
///     static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
///         let size = try arguments[Self.size]    // an Int from 1 to 16384
///         …
///     }
/// }
/// ```
///
/// Before `run`, the framework reads every typed option once (``CommandSpec/checkValues(_:)``)
/// and calls ``validate(_:)``, so a bad value is a usage error before any work starts.
///
/// `run` returns ``ExitCode/success`` or ``ExitCode/failure``. A thrown ``UsageError`` prints the
/// usage and exits 2; any other thrown error prints `thumbkit: <error>` and exits 1.
protocol Command: Sendable {
    /// Name, help text, positionals and options. A group lists its children in
    /// ``subcommands`` instead of `spec.subcommands`.
    static var spec: CommandSpec { get }
    /// Child commands of a group (`catalog` → `import`, `list`); empty for a leaf.
    static var subcommands: [any Command.Type] { get }
    /// Checks what the parser cannot: rules between options (`-o -` needs `--format`). Runs
    /// after every typed option has been read once and before ``run(_:context:)``; throw a
    /// ``UsageError`` (exit 2). The default accepts everything.
    static func validate(_ arguments: ParsedArguments) throws(UsageError)
    /// Does the work. Write output through `context`, never with `print`.
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode
}

extension Command {
    /// A leaf has no subcommands.
    static var subcommands: [any Command.Type] { [] }

    /// No rules between options.
    static func validate(_ arguments: ParsedArguments) throws(UsageError) {}

    /// ``spec`` with its subcommands filled in from ``subcommands``, recursively: the tree the
    /// parser and help see.
    static var resolvedSpec: CommandSpec {
        let children = subcommands
        guard !children.isEmpty else { return spec }
        assert(spec.subcommands.isEmpty, "\(spec.name): list children in `subcommands`, not in the spec.")
        return spec.replacingSubcommands(children.map { $0.resolvedSpec })
    }
}

/// A command that only dispatches (`thumbkit catalog`, `thumbkit bench`): declare
/// ``Command/subcommands``; the default ``run(_:context:)`` is reached only if the group
/// declares flags of its own, and reports a missing subcommand.
protocol CommandGroup: Command {}

extension CommandGroup {
    /// Reports ``UsageError/missingSubcommand(command:)``.
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        throw UsageError.missingSubcommand(command: arguments.commandName)
    }
}
