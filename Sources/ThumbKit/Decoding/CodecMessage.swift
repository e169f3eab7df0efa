// SPDX-License-Identifier: Apache-2.0
import CThumbKit

/// Bridges the shims' `char err[TK_ERR_LEN]` buffers to Swift strings, and turns a library
/// message into a ThumbKit reason: one line, first word lower-cased unless it is an acronym
/// ("Bogus Huffman table definition" → "bogus Huffman table definition", "IDAT: CRC error" kept).
enum CodecMessage {
    /// Size of every shim message buffer.
    static let capacity = Int(TK_ERR_LEN)

    /// A zeroed buffer to pass as `err` or `warn`.
    static func buffer() -> [CChar] {
        [CChar](repeating: 0, count: capacity)
    }

    /// The NUL-terminated text in `buffer`, normalised; empty when the shim left it empty.
    static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return normalized(String(decoding: bytes, as: UTF8.self))
    }

    /// One line, trimmed, with the first letter lower-cased when the second one is lower-case.
    static func normalized(_ message: String) -> String {
        var line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        while line.last == "." || line.last == " " { line.removeLast() }
        while line.first == " " { line.removeFirst() }
        let chars = Array(line)
        if chars.count >= 2, chars[0].isUppercase, chars[1].isLowercase {
            line = chars[0].lowercased() + String(chars.dropFirst())
        }
        return line
    }
}
