// SPDX-License-Identifier: Apache-2.0
/// The one HTML escaper of the package, shared by the static site (ThumbKitSite) and the bench
/// report (ThumbKitBench), so both treat every character the same way.
package enum HTMLText {
    /// `text` made safe in element content and in quoted attribute values, in the
    /// XML-compatible ("polyglot") form the site and the bench report write:
    /// - `& < > " '` become `&amp; &lt; &gt; &quot; &#39;`;
    /// - control characters, which neither HTML nor XML 1.0 allows, become U+FFFD: U+0000...U+0008,
    ///   U+000B, U+000C, U+000E...U+001F and U+007F. Tab, line feed and carriage return stay;
    /// - everything else is kept as it is.
    ///
    /// It works on Unicode scalars, not characters, so an `&` with a combining mark after it is
    /// still escaped, and a control character inside a grapheme cluster is still replaced.
    package static func escape<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
