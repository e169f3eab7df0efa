// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// One status line (`[12/40] IMG_0042.jpg`) redrawn in place with `\r` on stderr — only when
/// that output is a terminal; otherwise ``update(_:)`` and ``finish()`` do nothing, so logs and
/// pipes never see it. Safe to call from concurrent tasks.
///
/// Other text must not land in the middle of the line: write it with ``write(_:to:)``, which
/// clears the line, writes the text and redraws the line. ``CommandContext`` owns one progress
/// line and sends all its output through it, so commands just call `context.progress.update(…)`
/// and need not care. ``finish()`` clears the line (the CLI calls it when a command returns).
final class ProgressLine: Sendable {
    private struct State {
        var current: String?
    }

    /// Where the line is drawn (normally stderr).
    let output: TextOutput
    /// Longest text drawn; longer text is cut so the line never wraps (which would break `\r`).
    let maxLength: Int
    private let state = Locked(State())

    /// A progress line on `output`, cut to the terminal width (or `width` when given, or 80).
    init(output: TextOutput = .standardError, width: Int? = nil) {
        self.output = output
        let columns = width ?? output.fileDescriptor.flatMap(Terminal.columns) ?? 80
        self.maxLength = max(1, columns - 1)
    }

    /// Whether anything is drawn at all.
    var isEnabled: Bool { output.isTerminal }

    /// Replaces the line with `text` (terminal only).
    func update(_ text: String) {
        guard isEnabled else { return }
        let shown = String(text.prefix(maxLength))
        state.withLock { state in
            state.current = shown
            output.write("\r\u{1B}[2K" + shown)
        }
    }

    /// Writes `text` (whole lines, ending in a newline) to `target` without mixing it into the
    /// line: when the line is shown and `target` is a terminal too (stdout on the same screen,
    /// or the line's own output), the line is cleared first and redrawn after.
    func write(_ text: String, to target: TextOutput) {
        state.withLock { state in
            guard isEnabled, let current = state.current, target === output || target.isTerminal else {
                target.write(text)
                return
            }
            if target === output {
                output.write("\r\u{1B}[2K" + text + current)
            } else {
                output.write("\r\u{1B}[2K")
                target.write(text)
                output.write(current)
            }
        }
    }

    /// Clears the line and leaves the cursor at its start (terminal only).
    func finish() {
        state.withLock { state in
            guard isEnabled, state.current != nil else { return }
            state.current = nil
            output.write("\r\u{1B}[2K")
        }
    }
}
