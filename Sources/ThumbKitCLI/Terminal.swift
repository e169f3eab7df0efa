// SPDX-License-Identifier: Apache-2.0
import ThumbKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Terminal facts and ANSI styling. Colour and progress output appear only on a terminal, so
/// piped output (and every test) stays plain.
enum Terminal {
    /// `text` as one line that is safe to show on a terminal: the one escaping rule for every
    /// message that names a file or shows a title. Raw name bytes that are not UTF-8 show as
    /// `\xE9` (``PathBytes/display(_:)``) and control characters (newlines, escapes) as `?`, so a
    /// name can neither forge a second `thumbkit:` line nor send escape sequences.
    static func oneLine(_ text: String) -> String {
        let question: Unicode.Scalar = "?"
        let scalars = PathBytes.display(text).unicodeScalars.map { scalar -> Unicode.Scalar in
            scalar.properties.generalCategory == .control ? question : scalar
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// Whether `fd` is a terminal (`isatty`).
    static func isTTY(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// The terminal's width in columns, or nil when `fd` is not a terminal or does not say.
    static func columns(_ fd: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Colour is used when the output is a terminal, `NO_COLOR` is unset or empty
    /// (https://no-color.org), and `TERM` is not `dumb`.
    static func colorEnabled(isTerminal: Bool, environment: [String: String]) -> Bool {
        guard isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// Wraps text in ANSI colours when enabled, and returns it untouched otherwise.
    ///
    /// ```swift
    /// context.print(context.colors.green("ok") + " \(path)")
    /// ```
    struct Palette: Sendable, Hashable {
        /// Whether escapes are emitted.
        let isEnabled: Bool

        /// A palette that colours only when `isEnabled`.
        init(isEnabled: Bool) {
            self.isEnabled = isEnabled
        }

        /// Success.
        func green(_ text: String) -> String { paint(text, "32") }
        /// Failure.
        func red(_ text: String) -> String { paint(text, "31") }
        /// Warning or skipped.
        func yellow(_ text: String) -> String { paint(text, "33") }
        /// Emphasis.
        func bold(_ text: String) -> String { paint(text, "1") }
        /// De-emphasis.
        func dim(_ text: String) -> String { paint(text, "2") }

        private func paint(_ text: String, _ code: String) -> String {
            isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
        }
    }
}
