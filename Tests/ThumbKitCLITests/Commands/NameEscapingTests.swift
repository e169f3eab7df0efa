// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// No file name reaches stderr with its control characters raw, in `thumb`, `xdg` and
/// `thumbnailer` alike: one rule, `Terminal.oneLine` (issue 27, item 17).
struct NameEscapingTests {
    /// Runs the CLI in-process with a private `HOME` and `XDG_CACHE_HOME` below `home`.
    static func run(_ arguments: [String], home: String) async -> (status: Int32, stdout: String, stderr: String) {
        let out = TextOutput(capturingAsTerminal: false)
        let err = TextOutput(capturingAsTerminal: false)
        let status = await CLI.run(
            arguments, commands: ThumbKitCommands.all, stdout: out, stderr: err,
            environment: ["XDG_CACHE_HOME": home + "/cache", "HOME": home])
        return (status, out.text, err.text)
    }

    /// A damaged file whose name holds a newline and an escape sequence: its one line names it
    /// with `?` for each control character, and forges no second `thumbkit:` line.
    @Test(arguments: ["thumb", "xdg", "thumbnailer"])
    func aControlCharacterInANameCannotForgeALineOrReachTheTerminal(command: String) async throws {
        let dir = try TestBinary.temporaryDirectory("tk-name-control").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/bad\n\u{1B}[2Jthumbkit: forged.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]).write(to: URL(fileURLWithPath: path))
        let arguments: [String]
        switch command {
        case "thumb": arguments = ["thumb", "-s", "8", "-o", dir + "/out/%s.png", path]
        case "xdg": arguments = ["xdg", path]
        default: arguments = ["thumbnailer", "-s", "32", path, dir + "/out.png"]
        }
        let r = await Self.run(arguments, home: dir)
        #expect(r.status == 1)
        #expect(!r.stderr.contains("\u{1B}"), "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.hasPrefix("thumbkit: ") }, "\(r.stderr)")
        #expect(!lines.contains { $0.hasPrefix("thumbkit: forged") }, "\(r.stderr)")
        #expect(lines.contains { $0.contains(dir + "/bad??[2Jthumbkit: forged.jpg: ") }, "\(r.stderr)")
    }

    @Test func oneLineShowsRawBytesEscapedAndControlsAsQuestionMarks() {
        let text = PathBytes.string(Array("a\n\u{1B}[0m\u{7F}\u{85}b ".utf8) + [0xE9] + Array(" é".utf8))
        #expect(Terminal.oneLine(text) == "a??[0m??b \\xE9 é")
    }
}
