// SPDX-License-Identifier: Apache-2.0
/// Strict decimal numbers for URL arguments, and one fixed way to print them in identifiers
/// (never `description`, whose float formatting is not a promise).
enum CanonicalDecimal {
    /// The most characters a number argument may have (longer ones are refused, not truncated).
    static let maxLength = 24

    /// `[-]digits[.digits]` (or `[-].digits`) as a finite Double; nil for anything else:
    /// exponents, hex floats, `nan`, `inf`, `+`, spaces and over-long text.
    static func parse(_ text: Substring, allowNegative: Bool) -> Double? {
        guard !text.isEmpty, text.utf8.count <= maxLength else { return nil }
        var rest = text.utf8[...]
        if rest.first == UInt8(ascii: "-") {
            guard allowNegative else { return nil }
            rest = rest.dropFirst()
        }
        var digits = 0
        var dots = 0
        for byte in rest {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): dots += 1
            default: return nil
            }
        }
        guard digits > 0, dots <= 1, let value = Double(String(text)), value.isFinite else { return nil }
        return value == 0 ? 0 : value  // -0 prints as 0
    }

    /// A non-negative integer of at most 9 digits (so no overflow anywhere it is multiplied by a
    /// small factor); nil for signs, spaces, empty or longer text.
    static func parseCount(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9,
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text)
    }

    /// Six decimals at most, trailing zeros dropped: 1 → `1`, 0.5 → `0.5`, 1/3 → `0.333333`.
    static func format(_ value: Double) -> String {
        let micros = (value * 1_000_000).rounded()
        guard micros.magnitude < 9e15 else { return value < 0 ? "-huge" : "huge" }
        let scaled = Int64(micros)
        let sign = scaled < 0 ? "-" : ""
        let whole = scaled.magnitude / 1_000_000
        var fraction = String(scaled.magnitude % 1_000_000)
        if fraction == "0" { return "\(sign)\(whole)" }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(whole).\(fraction)"
    }
}
