import Synchronization

/// One status line (`[12/40] IMG_0042.jpg`) redrawn in place with `\r` on stderr — only when
/// that output is a terminal; otherwise ``update(_:)`` and ``finish()`` do nothing, so logs and
/// pipes never see it. Safe to call from concurrent tasks.
///
/// Print messages while a line is shown with ``printAbove(_:)``: it clears the line, writes the
/// message and redraws, so the two never mix. Call ``finish()`` at the end to clear the line.
public final class ProgressLine: Sendable {
    private struct State {
        var current: String?
    }

    /// Where the line is drawn (normally stderr).
    public let output: TextOutput
    /// Longest text drawn; longer text is cut so the line never wraps (which would break `\r`).
    public let maxLength: Int
    private let state = Mutex(State())

    /// A progress line on `output`, cut to the terminal width (or `width` when given, or 80).
    public init(output: TextOutput = .standardError, width: Int? = nil) {
        self.output = output
        let columns = width ?? output.fileDescriptor.flatMap(Terminal.columns) ?? 80
        self.maxLength = max(1, columns - 1)
    }

    /// Whether anything is drawn at all.
    public var isEnabled: Bool { output.isTerminal }

    /// Replaces the line with `text` (terminal only).
    public func update(_ text: String) {
        guard isEnabled else { return }
        let shown = String(text.prefix(maxLength))
        state.withLock { state in
            state.current = shown
            output.write("\r\u{1B}[2K" + shown)
        }
    }

    /// Writes `line` (and a newline) above the progress line, which is then redrawn. Without
    /// a terminal it simply writes the line.
    public func printAbove(_ line: String) {
        state.withLock { state in
            guard isEnabled, let current = state.current else {
                output.writeLine(line)
                return
            }
            output.write("\r\u{1B}[2K" + line + "\n" + current)
        }
    }

    /// Clears the line and leaves the cursor at its start (terminal only).
    public func finish() {
        state.withLock { state in
            guard isEnabled, state.current != nil else { return }
            state.current = nil
            output.write("\r\u{1B}[2K")
        }
    }
}
