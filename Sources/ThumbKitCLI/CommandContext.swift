// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// What a running command may touch besides its arguments: the two outputs, the environment and
/// the program name. Tests build one with capturing ``TextOutput``s and read them back.
///
/// Conventions: results go to ``stdout`` (one JSON document with `--json`, see ``writeJSON(_:)``);
/// errors, warnings and progress go to ``stderr``; a failed input is reported with
/// ``report(_:)`` as `thumbkit: <path>: <reason>` and the batch carries on.
struct CommandContext: Sendable {
    /// Prefix of every message (`thumbkit`).
    let programName: String
    /// Results.
    let stdout: TextOutput
    /// Errors, warnings and progress.
    let stderr: TextOutput
    /// Environment variables (for `NO_COLOR`, `THUMBKIT_*` settings and so on).
    let environment: [String: String]
    /// The status line on stderr (drawn only when stderr is a terminal). Everything written
    /// through this context goes around it, so it never mixes with results or errors.
    let progress: ProgressLine

    /// A context; pass capturing outputs in tests.
    init(
        programName: String = VersionInfo.programName, stdout: TextOutput, stderr: TextOutput,
        environment: [String: String] = [:]
    ) {
        self.programName = programName
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
        self.progress = ProgressLine(output: stderr)
    }

    /// Colours for text written to stdout: enabled only on a terminal without `NO_COLOR`.
    var colors: Terminal.Palette {
        Terminal.Palette(isEnabled: Terminal.colorEnabled(isTerminal: stdout.isTerminal, environment: environment))
    }

    /// Writes `line` and a newline to stdout.
    func print(_ line: String) {
        progress.write(line + "\n", to: stdout)
    }

    /// Writes `thumbkit: <message>` and a newline to stderr, the message on one line as
    /// ``Terminal/oneLine(_:)`` shows it: bytes of file names that are not UTF-8 as `\xE9`,
    /// control characters as `?`.
    func printError(_ message: String) {
        progress.write("\(programName): \(Terminal.oneLine(message))\n", to: stderr)
    }

    /// Reports a failed input: `thumbkit: <error>` on stderr, where the error's description is
    /// `<path>: <reason>` (`DecodeError`, `EncodeError` and friends).
    func report(_ error: any Error) {
        printError(String(describing: error))
    }

    /// Writes `value` to stdout as pretty-printed JSON with sorted keys, unescaped slashes and
    /// ISO 8601 dates, followed by a newline.
    func writeJSON<T: Encodable>(_ value: T) throws {
        print(try Self.jsonString(value))
    }

    /// The JSON text ``writeJSON(_:)`` writes (without the final newline).
    static func jsonString<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
