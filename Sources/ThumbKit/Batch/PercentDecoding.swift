// SPDX-License-Identifier: Apache-2.0
/// Strict percent-decoding (RFC 3986 §2.1), the one decoder of the package: `+` stays `+`, and a
/// `%` not followed by two hex digits is refused rather than guessed. Callers decide what the
/// bytes may be (UTF-8, no NUL).
package enum PercentDecoding {
    /// The bytes `text` stands for, or nil when a `%` lacks its two hex digits.
    package static func bytes<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = text.startIndex
        while i != text.endIndex {
            guard text[i] == UInt8(ascii: "%") else {
                out.append(text[i])
                i = text.index(after: i)
                continue
            }
            let first = text.index(after: i)
            guard first != text.endIndex, let high = HexDigit.value(text[first]) else { return nil }
            let second = text.index(after: first)
            guard second != text.endIndex, let low = HexDigit.value(text[second]) else { return nil }
            out.append(high << 4 | low)
            i = text.index(after: second)
        }
        return out
    }

    /// `text` decoded, when the result is UTF-8.
    package static func string(_ text: some StringProtocol) -> String? {
        bytes(text.utf8).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
