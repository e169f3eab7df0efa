// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKitCLI

#if canImport(Glibc)
    import Glibc
#endif

private struct SampleReportError: Error, CustomStringConvertible {
    var description: String { "b.jpg: not an image" }
}

struct ColorRow: Sendable, CustomTestStringConvertible {
    let label: String
    let isTerminal: Bool
    let environment: [String: String]
    let expected: Bool
    var testDescription: String { label }
}

/// Colour, progress lines and captured outputs: plain text unless the stream is a terminal.
struct TerminalTests {
    static let colorRows: [ColorRow] = [
        ColorRow(label: "terminal", isTerminal: true, environment: [:], expected: true),
        ColorRow(label: "pipe", isTerminal: false, environment: [:], expected: false),
        ColorRow(label: "NO_COLOR set", isTerminal: true, environment: ["NO_COLOR": "1"], expected: false),
        ColorRow(label: "NO_COLOR empty", isTerminal: true, environment: ["NO_COLOR": ""], expected: true),
        ColorRow(label: "dumb terminal", isTerminal: true, environment: ["TERM": "dumb"], expected: false),
        ColorRow(label: "pipe with TERM", isTerminal: false, environment: ["TERM": "xterm"], expected: false),
    ]

    @Test(arguments: colorRows)
    func colourIsUsedOnlyOnATerminalWithoutNoColor(row: ColorRow) {
        #expect(Terminal.colorEnabled(isTerminal: row.isTerminal, environment: row.environment) == row.expected)
        let context = CommandContext(
            stdout: TextOutput(capturingAsTerminal: row.isTerminal), stderr: TextOutput(),
            environment: row.environment)
        #expect(context.colors.isEnabled == row.expected)
    }

    @Test func anEnabledPaletteWrapsTextInAnsiCodesAndADisabledOneDoesNot() {
        let on = Terminal.Palette(isEnabled: true)
        #expect(on.green("ok") == "\u{1B}[32mok\u{1B}[0m")
        #expect(on.red("failed") == "\u{1B}[31mfailed\u{1B}[0m")
        #expect(on.bold("x") == "\u{1B}[1mx\u{1B}[0m")
        let off = Terminal.Palette(isEnabled: false)
        for paint in [off.green, off.red, off.yellow, off.bold, off.dim] {
            #expect(paint("plain") == "plain")
        }
    }

    @Test func aProgressLineDrawsNothingWhenStderrIsNotATerminal() {
        let stderr = TextOutput(capturingAsTerminal: false)
        let progress = ProgressLine(output: stderr, width: 80)
        progress.update("[1/2] a.jpg")
        progress.write("thumbkit: b.jpg: not an image\n", to: stderr)
        progress.update("[2/2] b.jpg")
        progress.finish()
        #expect(!progress.isEnabled)
        #expect(stderr.text == "thumbkit: b.jpg: not an image\n")
    }

    @Test func aProgressLineRewritesOneLineAndClearsItOnATerminal() {
        let stderr = TextOutput(capturingAsTerminal: true)
        let progress = ProgressLine(output: stderr, width: 80)
        progress.update("[1/2] a.jpg")
        progress.write("warning\n", to: stderr)
        progress.update("[2/2] b.jpg")
        progress.finish()
        progress.finish()
        let clear = "\r\u{1B}[2K"
        #expect(stderr.text == "\(clear)[1/2] a.jpg\(clear)warning\n[1/2] a.jpg\(clear)[2/2] b.jpg\(clear)")
        #expect(!stderr.text.contains("\n[2/2]"))
    }

    @Test func resultsOnTheSameTerminalAreWrittenAroundTheProgressLine() {
        let stdout = TextOutput(capturingAsTerminal: true)
        let stderr = TextOutput(capturingAsTerminal: true)
        let context = CommandContext(stdout: stdout, stderr: stderr)
        context.progress.update("[1/2] a.jpg")
        context.print("a.jpg ok")
        context.report(SampleReportError())
        context.progress.finish()
        let clear = "\r\u{1B}[2K"
        #expect(stdout.text == "a.jpg ok\n")
        #expect(
            stderr.text
                == "\(clear)[1/2] a.jpg\(clear)[1/2] a.jpg\(clear)thumbkit: b.jpg: not an image\n[1/2] a.jpg\(clear)")
    }

    @Test func resultsPipedElsewhereLeaveTheProgressLineAlone() {
        let stdout = TextOutput(capturingAsTerminal: false)
        let stderr = TextOutput(capturingAsTerminal: true)
        let context = CommandContext(stdout: stdout, stderr: stderr)
        context.progress.update("[1/2] a.jpg")
        context.print("a.jpg ok")
        #expect(stdout.text == "a.jpg ok\n")
        #expect(stderr.text == "\r\u{1B}[2K[1/2] a.jpg")
    }

    @Test func aProgressLineIsCutShortOfTheTerminalWidth() {
        let stderr = TextOutput(capturingAsTerminal: true)
        let progress = ProgressLine(output: stderr, width: 10)
        progress.update("0123456789abcdef")
        #expect(progress.maxLength == 9)
        #expect(stderr.text == "\r\u{1B}[2K012345678")
    }

    @Test func aCapturingOutputKeepsEverythingWrittenInOrder() async {
        let output = TextOutput()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { output.writeLine("line \(index)") }
            }
        }
        let lines = output.text.split(separator: "\n")
        #expect(lines.count == 50)
        #expect(Set(lines) == Set((0..<50).map { "line \($0)" }))
        #expect(!output.isTerminal)
        #expect(output.fileDescriptor == nil)
    }

    @Test func aDescriptorOutputWritesEveryByteToAPipeThatIsNotATerminal() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let output = TextOutput(fileDescriptor: fds[1])
        #expect(!output.isTerminal)
        #expect(Terminal.columns(fds[1]) == nil)
        output.write("héllo ")
        output.writeLine("wörld")
        close(fds[1])
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(fds[0], &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(0, count)), as: UTF8.self) == "héllo wörld\n")
        #expect(output.text.isEmpty)
    }

    @Test func contextMessagesGoToTheRightStream() {
        let out = TextOutput()
        let err = TextOutput()
        let context = CommandContext(stdout: out, stderr: err)
        context.print("result")
        context.printError("warning: slow disk")
        #expect(out.text == "result\n")
        #expect(err.text == "thumbkit: warning: slow disk\n")
    }

    @Test func jsonHasSortedKeysUnescapedSlashesAndIsoDates() throws {
        struct Record: Encodable {
            let zeta = 1
            let alpha = "a/b"
            let when = Date(timeIntervalSince1970: 0)
        }
        let text = try CommandContext.jsonString(Record())
        #expect(
            text == """
                {
                  "alpha" : "a/b",
                  "when" : "1970-01-01T00:00:00Z",
                  "zeta" : 1
                }
                """)
    }
}
