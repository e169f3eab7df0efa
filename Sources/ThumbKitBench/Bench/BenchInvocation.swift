// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality
/// One process of a timed run: its command line and, when it must run inside a folder
/// (GraphicsMagick's `-output-directory` appends the input path), that folder.
package struct BenchInvocation: Sendable, Hashable, Codable {
    /// The program and its arguments.
    package var arguments: [String]
    /// The folder to run in, or nil for the current one.
    package var workingDirectory: String?

    package init(_ arguments: [String], workingDirectory: String? = nil) {
        precondition(!arguments.isEmpty, "An invocation needs a program.")
        self.arguments = arguments
        self.workingDirectory = workingDirectory
    }

    /// The command line as a shell would show it (for logs and failure messages).
    package var commandLine: String {
        let words = arguments.map { word -> String in
            let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:%,+@".contains($0) }
            return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let line = words.joined(separator: " ")
        return workingDirectory.map { "(cd \($0) && \(line))" } ?? line
    }
}
