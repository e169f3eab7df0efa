// SPDX-License-Identifier: Apache-2.0
/// Every way a command line can be wrong. Each case quotes the token involved, so the message
/// can name it. The CLI prints `thumbkit: error: <description>`, the usage line and a pointer to
/// `--help` on stderr, and exits 2 (``ExitCode/usage``).
///
/// Commands may throw these from `run` too (the typed helpers of ``ParsedArguments`` do), and get
/// the same treatment. Tests should match on the case, not the text.
enum UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An option that the command does not declare, as typed (`--foo`, `-x`).
    case unknownOption(String)
    /// An option that needs a value got none (`--quality` at the end). Canonical `--long` name.
    case missingValue(option: String)
    /// A value the option cannot take, with why (`expected an integer`). Canonical `--long` name.
    case invalidValue(option: String, value: String, reason: String)
    /// A positional token the command has no room for.
    case unexpectedArgument(String)
    /// A required positional argument is missing (its name, without brackets).
    case missingArgument(String)
    /// A subcommand name that the group does not have.
    case unknownCommand(String)
    /// A command group was run without a subcommand (its full name, `thumbkit catalog`).
    case missingSubcommand(command: String)
    /// A check across options failed (`--width and --size cannot be used together`).
    case validationFailed(String)

    /// One lower-case line without a final period.
    var description: String {
        switch self {
        case .unknownOption(let token):
            return "unknown option '\(token)'"
        case .missingValue(let option):
            return "missing value for option '\(option)'"
        case .invalidValue(let option, let value, let reason):
            return "invalid value '\(value)' for option '\(option)': \(reason)"
        case .unexpectedArgument(let token):
            return "unexpected argument '\(token)'"
        case .missingArgument(let name):
            return "missing argument '<\(name)>'"
        case .unknownCommand(let name):
            return "unknown command '\(name)'"
        case .missingSubcommand(let command):
            return "missing subcommand for '\(command)'"
        case .validationFailed(let message):
            return message
        }
    }
}
