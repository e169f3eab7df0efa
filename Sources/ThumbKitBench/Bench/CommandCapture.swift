// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// Runs a short command and returns what it printed: for version strings and `git rev-parse`.
/// Not for timing (see ``ProcessTimer``).
enum CommandCapture {
    /// The trimmed stdout and stderr of `arguments` (the first is an absolute path or looked up
    /// on PATH), or nil when it cannot start or exits with a failure (unless `acceptFailure`).
    /// Stdin is /dev/null, so a tool that waits for input (`djpeg -version`) gets end of file.
    static func output(
        _ arguments: [String], workingDirectory: String? = nil, acceptFailure: Bool = false
    ) -> String? {
        guard let first = arguments.first, let program = ProcessTimer.which(first) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(arguments.dropFirst())
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard acceptFailure || process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first line of ``output(_:workingDirectory:acceptFailure:)``, or nil when empty.
    static func firstLine(_ arguments: [String], acceptFailure: Bool = false) -> String? {
        guard let text = output(arguments, acceptFailure: acceptFailure) else { return nil }
        let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        return line.isEmpty ? nil : line
    }
}
