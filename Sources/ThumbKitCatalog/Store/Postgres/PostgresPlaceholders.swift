// SPDX-License-Identifier: Apache-2.0
/// The one place where the catalog's `?` parameters become PostgreSQL's `$1…$n`.
///
/// The catalog's statements are written with SQLite's `?` and `?NNN` placeholders (both are
/// used: see `CatalogTransaction+Ingest.swift`). `numbered(_:)` rewrites every one that stands
/// where a parameter can stand, and leaves alone every `?` inside:
/// - string literals `'…'` (with `''` for a quote) and escape strings `E'…'` (with `\'` too),
/// - quoted identifiers `"…"` (with `""` for a quote),
/// - dollar-quoted strings `$$…$$` and `$tag$…$tag$`,
/// - comments: `-- …` to the end of the line and `/* … */` (nested, as PostgreSQL allows).
///
/// A `?` anywhere else is a parameter, so the catalog never uses PostgreSQL's operators that
/// contain `?` (jsonb `?`, `?|`, `?&`). The rewrite assumes `standard_conforming_strings = on`
/// (PostgreSQL's default, and set by `PostgresConnection`), so `\` is an ordinary character in
/// `'…'`.
enum PostgresPlaceholders {
    /// `sql` with its parameter `?`s numbered `$1…$n` from left to right (`?NNN` becomes
    /// `$NNN`), and n, the number of values the statement takes.
    static func numbered(_ sql: String) -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var count = 0
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "?"):
                // SQLite's rules: `?NNN` is parameter NNN; a bare `?` is one more than the
                // largest number so far.
                var end = i + 1
                while end < bytes.count && bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9") {
                    end += 1
                }
                let number = end > i + 1 ? Int(String(decoding: bytes[(i + 1)..<end], as: UTF8.self)) ?? 0 : count + 1
                count = max(count, number)
                out.append(contentsOf: Array("$\(number)".utf8))
                i = end
            case UInt8(ascii: "'"):
                let escapes =
                    i > 0 && (bytes[i - 1] | 0x20) == UInt8(ascii: "e") && !isIdentifierByte(at: i - 2, in: bytes)
                i = copyQuoted(bytes, from: i, quote: byte, backslashEscapes: escapes, into: &out)
            case UInt8(ascii: "\""):
                i = copyQuoted(bytes, from: i, quote: byte, backslashEscapes: false, into: &out)
            case UInt8(ascii: "-") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-"):
                let end = bytes[i...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                out.append(contentsOf: bytes[i..<end])
                i = end
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                i = copyBlockComment(bytes, from: i, into: &out)
            case UInt8(ascii: "$") where !isIdentifierByte(at: i - 1, in: bytes):
                i = copyDollarQuoted(bytes, from: i, into: &out)
            default:
                out.append(byte)
                i += 1
            }
        }
        return (String(decoding: out, as: UTF8.self), count)
    }

    /// True when `bytes[index]` exists and can be part of an unquoted identifier.
    private static func isIdentifierByte(at index: Int, in bytes: [UInt8]) -> Bool {
        guard index >= 0, index < bytes.count else { return false }
        let b = bytes[index]
        return b == UInt8(ascii: "_") || b == UInt8(ascii: "$") || b >= 0x80
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z"))
    }

    /// Copies a quoted run that starts at `start` (the opening quote); a doubled quote stays
    /// inside. Returns the index after the closing quote (or the end, when it is unterminated).
    private static func copyQuoted(
        _ bytes: [UInt8], from start: Int, quote: UInt8, backslashEscapes: Bool, into out: inout [UInt8]
    ) -> Int {
        var i = start + 1
        while i < bytes.count {
            if backslashEscapes && bytes[i] == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if bytes[i] == quote {
                if i + 1 < bytes.count && bytes[i + 1] == quote {
                    i += 2
                    continue
                }
                i += 1
                break
            }
            i += 1
        }
        let end = min(i, bytes.count)
        out.append(contentsOf: bytes[start..<end])
        return end
    }

    /// Copies a (possibly nested) `/* … */` comment; returns the index after it.
    private static func copyBlockComment(_ bytes: [UInt8], from start: Int, into out: inout [UInt8]) -> Int {
        var depth = 0
        var i = start
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "/") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*") {
                depth += 1
                i += 2
            } else if bytes[i] == UInt8(ascii: "*") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/") {
                depth -= 1
                i += 2
                if depth == 0 { break }
            } else {
                i += 1
            }
        }
        let end = min(i, bytes.count)
        out.append(contentsOf: bytes[start..<end])
        return end
    }

    /// At a `$`: copies a dollar-quoted string (`$tag$ … $tag$`, tag empty or an identifier not
    /// starting with a digit) whole, or just the `$` when none starts here (`$1`, a lone `$`).
    private static func copyDollarQuoted(_ bytes: [UInt8], from start: Int, into out: inout [UInt8]) -> Int {
        var i = start + 1
        if i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") {
            out.append(bytes[start])
            return start + 1
        }
        while i < bytes.count && bytes[i] != UInt8(ascii: "$") && isIdentifierByte(at: i, in: bytes) { i += 1 }
        guard i < bytes.count && bytes[i] == UInt8(ascii: "$") else {
            out.append(bytes[start])
            return start + 1
        }
        let tag = Array(bytes[start...i])
        var j = i + 1
        while j + tag.count <= bytes.count {
            if bytes[j] == UInt8(ascii: "$") && Array(bytes[j..<(j + tag.count)]) == tag {
                j += tag.count
                out.append(contentsOf: bytes[start..<j])
                return j
            }
            j += 1
        }
        out.append(contentsOf: bytes[start...])
        return bytes.count
    }
}
