// SPDX-License-Identifier: Apache-2.0
/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN`: columns separated by a tab,
/// rows ended by a newline, `\N` for NULL, and in text a backslash before every backslash, and
/// `\t`, `\n`, `\r` for tab, newline and carriage return (so no value can end a column or a row
/// early, or read as `\N` or as the end-of-data marker `\.`). Every other byte goes as it is
/// (the session's client encoding is UTF-8). Integers go as decimal digits and doubles as
/// `PostgresConnection.text(of:)` writes them, which the server reads back exactly, as it
/// reads a parameter.
enum PostgresCopyText {
    /// Appends `row` as one line to `buffer`. A text value holding a NUL character, which
    /// PostgreSQL cannot store, is left to `refuse` (which throws) before anything is appended.
    static func append(
        _ row: [CatalogValue], to buffer: inout [UInt8], refuse: (String) throws(CatalogError) -> Void
    ) throws(CatalogError) {
        for value in row {
            if case .text(let text) = value { try refuse(text) }
        }
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            switch value {
            case .null:
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "N"))
            case .integer(let number):
                appendDecimal(number, to: &buffer)
            case .real(let number):
                buffer.append(contentsOf: PostgresConnection.text(of: number).utf8)
            case .text(let text):
                appendEscaped(text, to: &buffer)
            }
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// `number` in decimal, with a leading `-` when negative (`Int.min` included).
    static func appendDecimal(_ number: Int, to buffer: inout [UInt8]) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned: -Int.min does not fit in an Int.
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(scratch[index]) }
        }
    }

    /// `text`'s UTF-8 with backslash, tab, newline and carriage return escaped.
    static func appendEscaped(_ text: String, to buffer: inout [UInt8]) {
        for byte in text.utf8 {
            let escape: UInt8? =
                switch byte {
                case UInt8(ascii: "\\"): UInt8(ascii: "\\")
                case UInt8(ascii: "\t"): UInt8(ascii: "t")
                case UInt8(ascii: "\n"): UInt8(ascii: "n")
                case UInt8(ascii: "\r"): UInt8(ascii: "r")
                default: nil
                }
            if let escape {
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(escape)
            } else {
                buffer.append(byte)
            }
        }
    }
}
