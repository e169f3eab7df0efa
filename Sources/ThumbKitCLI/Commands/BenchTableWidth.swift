// SPDX-License-Identifier: Apache-2.0
/// The width the bench's tables are fitted to (`bench`, `bench history`, `bench show`).
///
/// On a terminal: `COLUMNS` when it holds a positive number, else the terminal's own width
/// (`TIOCGWINSZ`), else 100. Elsewhere (a pipe, a file, a test's capture): 100, so pasted
/// output stays readable too. `--wide` skips the fitting (the caller passes no width).
enum BenchTableWidth {
    /// The width used when nothing better is known.
    static let fallback = 100

    /// The width for text written to `output`.
    static func width(of output: TextOutput, environment: [String: String]) -> Int {
        guard output.isTerminal else { return fallback }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        if let fd = output.fileDescriptor, let columns = Terminal.columns(fd) { return columns }
        return fallback
    }
}
