// SPDX-License-Identifier: Apache-2.0
/// A strict check of JSON syntax (RFC 8259, UTF-8) that says where and why a file is not JSON,
/// in our own words: `line 3, column 14: a \uD83D escape is not followed by a low surrogate`.
/// `JSONDecoder`'s own errors name Swift internals (`expectedLowSurrogateUTF8SequenceAfter…`),
/// and some only surface lazily, while one record's string is decoded.
struct JSONSyntax {
    /// Where the first error is and why.
    struct Failure: Error, Hashable, CustomStringConvertible {
        /// 1-based line.
        let line: Int
        /// 1-based column, counted in characters (Unicode scalars) on that line.
        let column: Int
        /// Byte offset from the start of the file.
        let offset: Int
        /// What is wrong there, lower-case.
        let reason: String

        var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// Nesting deeper than this is refused (as `JSONDecoder` refuses it) rather than risking
    /// the stack.
    static let maxDepth = 512

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The first syntax error in `bytes`, or nil when they are one well-formed JSON value.
    static func firstError(in bytes: [UInt8]) -> Failure? {
        var scanner = JSONSyntax(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        do throws(Failure) {
            try scanner.skipSpace()
            try scanner.value(depth: 0)
            try scanner.skipSpace()
            if scanner.index < bytes.count { throw scanner.fail("unexpected text after the end of the document") }
            return nil
        } catch {
            return error
        }
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> Failure {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[0..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Failure(line: line, column: column, offset: offset, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() throws(Failure) {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func value(depth: Int) throws(Failure) {
        guard depth < Self.maxDepth else { throw fail("nested more than \(Self.maxDepth) levels deep") }
        guard let byte = current else { throw fail("the document ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), depth: depth, keyed: true)
        case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), depth: depth, keyed: false)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try word("true")
        case UInt8(ascii: "f"): try word("false")
        case UInt8(ascii: "n"): try word("null")
        default: throw fail("\(shown(byte)) cannot start a value")
        }
    }

    private mutating func container(close: UInt8, depth: Int, keyed: Bool) throws(Failure) {
        let what = keyed ? "object" : "list"
        index += 1
        try skipSpace()
        if current == close {
            index += 1
            return
        }
        while true {
            if keyed {
                guard current == UInt8(ascii: "\"") else { throw fail("a key (a string in double quotes) is expected") }
                try string()
                try skipSpace()
                guard current == UInt8(ascii: ":") else { throw fail("':' is expected after the key") }
                index += 1
                try skipSpace()
            }
            try value(depth: depth + 1)
            try skipSpace()
            guard let byte = current else { throw fail("the document ends inside an \(what)") }
            index += 1
            if byte == close { return }
            guard byte == UInt8(ascii: ",") else {
                throw fail("',' or '\(Character(Unicode.Scalar(close)))' is expected in the \(what)", at: index - 1)
            }
            try skipSpace()
        }
    }

    private mutating func word(_ text: String) throws(Failure) {
        let expected = Array(text.utf8)
        guard bytes[index...].starts(with: expected) else { throw fail("unknown word (expected '\(text)')") }
        index += expected.count
    }

    private mutating func number() throws(Failure) {
        func digits() -> Int {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - start
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw fail("a digit is expected in the number")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { throw fail("a digit is expected after the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { throw fail("a digit is expected in the exponent") }
        }
    }

    private mutating func string() throws(Failure) {
        index += 1
        while true {
            guard let byte = current else { throw fail("the document ends inside a string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                try escape()
            case 0..<0x20:
                throw fail("control character \(shown(byte)) in a string (write it as an escape)")
            case 0x80...:
                try utf8Sequence()
            default:
                index += 1
            }
        }
    }

    private mutating func escape() throws(Failure) {
        let start = index
        index += 1
        guard let byte = current else { throw fail("the document ends inside a string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let unit = try hex4(escapeStart: start)
            if (0xDC00...0xDFFF).contains(unit) {
                throw fail("\(escaped(unit)) is a low surrogate without a high surrogate before it", at: start)
            }
            guard (0xD800...0xDBFF).contains(unit) else { return }
            let next = index
            guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                throw fail("\(escaped(unit)) is not followed by a low surrogate (\\uDC00 to \\uDFFF)", at: start)
            }
            index += 2
            let low = try hex4(escapeStart: next)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw fail("\(escaped(unit)) is not followed by a low surrogate (\\uDC00 to \\uDFFF)", at: start)
            }
        default:
            throw fail("unknown escape '\\\(shown(byte, quoted: false))' in a string", at: start)
        }
    }

    private mutating func hex4(escapeStart: Int) throws(Failure) -> Int {
        var unit = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Int(String(Unicode.Scalar(byte)), radix: 16) else {
                throw fail("a \\u escape needs four hex digits", at: escapeStart)
            }
            unit = unit * 16 + digit
            index += 1
        }
        return unit
    }

    /// One multi-byte UTF-8 character (RFC 3629: no overlong forms, no surrogates, ≤ U+10FFFF).
    private mutating func utf8Sequence() throws(Failure) {
        let lead = bytes[index]
        let (count, range): (Int, ClosedRange<UInt8>) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80...0xBF)
            case 0xE0: (3, 0xA0...0xBF)
            case 0xED: (3, 0x80...0x9F)
            case 0xE1...0xEF: (3, 0x80...0xBF)
            case 0xF0: (4, 0x90...0xBF)
            case 0xF4: (4, 0x80...0x8F)
            case 0xF1...0xF3: (4, 0x80...0xBF)
            default: (0, 0...0)
            }
        let invalid = "bytes that are not valid UTF-8 (byte \(index) of the file)"
        guard count > 0, index + count <= bytes.count, range.contains(bytes[index + 1]),
            bytes[(index + 2)..<(index + count)].allSatisfy({ $0 & 0xC0 == 0x80 })
        else { throw fail(invalid) }
        index += count
    }

    private func escaped(_ unit: Int) -> String {
        let hex = String(unit, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// A byte for a message: `'x'`, or `byte 0x1B` when it is not printable.
    private func shown(_ byte: UInt8, quoted: Bool = true) -> String {
        guard (0x21...0x7E).contains(byte) else { return "byte 0x" + String(byte, radix: 16, uppercase: true) }
        let text = String(Character(Unicode.Scalar(byte)))
        return quoted ? "'\(text)'" : text
    }
}
