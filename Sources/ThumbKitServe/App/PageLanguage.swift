// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The reader's language from `Accept-Language`, kept small: the first language of a handful
/// the app knows (English, German, French, Spanish, Italian, Dutch, Portuguese, Swedish,
/// Polish, Russian), for the page's `lang` attribute and the decimal separator of its numbers
/// (`3.5`, or `3,5` in German). Other languages get English. Dates stay machine-readable in
/// `<time datetime>` and `site.js` shows them in the reader's locale, as on the static site.
package struct PageLanguage: Sendable, Hashable {
    /// `en`, `de`, …
    package let code: String

    /// Languages written with a decimal comma.
    private static let commaLanguages: Set<String> = ["de", "fr", "es", "it", "nl", "pt", "sv", "pl", "ru"]
    private static let known: Set<String> = commaLanguages.union(["en"])

    package init(code: String) {
        self.code = Self.known.contains(code) ? code : "en"
    }

    /// The first known language of an `Accept-Language` value, by its `q` weights.
    package init(acceptLanguage: String?) {
        var best: (code: String, q: Double)?
        for item in (acceptLanguage ?? "").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty else { continue }
            let code = String(tag.prefix { $0 != "-" && $0 != "_" })
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            guard Self.known.contains(code), q > 0, q > (best?.q ?? 0) else { continue }
            best = (code, q)
        }
        self.init(code: best?.code ?? "en")
    }

    /// `value` with at most `digits` decimals, trailing zeros dropped, in this language's
    /// decimal separator: `3.5`, `3,5`, `4`.
    package func number(_ value: Double, digits: Int = 2) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return Self.commaLanguages.contains(code) ? text.replacingOccurrences(of: ".", with: ",") : text
    }
}
