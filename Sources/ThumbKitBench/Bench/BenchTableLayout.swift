// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality
/// Fitting the bench's text tables and notes to a terminal's width: tables that do not fit
/// drop their detail columns (shown below them, or with `--wide`), prose wraps, and a line that
/// cannot be split is cut with `…`.
package enum BenchTableLayout {
    /// The width a row of `cells` takes with `widths` and two spaces between columns.
    package static func rowWidth(_ widths: [Int]) -> Int {
        widths.reduce(0, +) + 2 * max(0, widths.count - 1)
    }

    /// The widest cell of each column of `rows`.
    package static func columnWidths(_ rows: [[String]]) -> [Int] {
        guard let first = rows.first else { return [] }
        return first.indices.map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    }

    /// `rows` with only the columns at `kept`, in order.
    package static func select(_ rows: [[String]], columns kept: [Int]) -> [[String]] {
        rows.map { row in kept.map { $0 < row.count ? row[$0] : "" } }
    }

    /// `line` when it fits in `width` characters, else its start and `…`.
    package static func cut(_ line: String, to width: Int?) -> String {
        guard let width, line.count > width, width > 1 else { return line }
        return String(line.prefix(width - 1)) + "…"
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word stays
    /// whole); the first line keeps the text's leading spaces and the others start with
    /// `indent`. Unchanged without a width.
    package static func wrap(_ text: String, width: Int?, indent: String = "") -> [String] {
        guard let width, text.count > width else { return [text] }
        let lead = String(text.prefix { $0 == " " })
        var lines: [String] = []
        var current = lead
        var currentHasWord = false
        for word in text.dropFirst(lead.count).split(separator: " ") {
            if currentHasWord, current.count + 1 + word.count > width {
                lines.append(current)
                current = indent + word
            } else {
                current += (currentHasWord ? " " : "") + word
            }
            currentHasWord = true
        }
        if currentHasWord { lines.append(current) }
        return lines
    }

    /// `items` joined with `separator` after `lead`, broken between items (never inside one,
    /// and the separator dropped there) into lines of at most `width` characters; continuation
    /// lines start with `indent`.
    package static func join(
        _ items: [String], separator: String, lead: String, width: Int?, indent: String
    ) -> [String] {
        guard let width else { return [lead + items.joined(separator: separator)] }
        var lines: [String] = []
        var current = lead
        var empty = true
        for item in items {
            let piece = (empty ? "" : separator) + item
            if !empty, current.count + piece.count > width {
                lines.append(current)
                current = indent + item
            } else {
                current += piece
            }
            empty = false
        }
        lines.append(current)
        return lines
    }
}
