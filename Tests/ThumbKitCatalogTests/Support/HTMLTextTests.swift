// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCatalog

/// Pins the one HTML escaping rule the site and the bench report share.
struct HTMLTextTests {
    @Test func theFiveMarkupCharactersBecomeTheFiveXMLEntities() {
        #expect(HTMLText.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
        #expect(HTMLText.escape("&amp;") == "&amp;amp;")  // never "already escaped"
    }

    @Test func everyControlCharacterButTabLineFeedAndReturnBecomesAReplacementCharacter() {
        for value in UInt32(0)...0x7F {
            let scalar = Unicode.Scalar(value)!
            let escaped = HTMLText.escape(String(Character(scalar)))
            let control = value < 0x20 || value == 0x7F
            if control && ![0x09, 0x0A, 0x0D].contains(value) {
                #expect(escaped == "\u{FFFD}", "U+\(String(value, radix: 16))")
            } else if !"&<>\"'".unicodeScalars.contains(scalar) {
                #expect(escaped == String(Character(scalar)), "U+\(String(value, radix: 16))")
            }
        }
        // C1 controls are allowed in XML 1.0 and stay as they are, like all other text.
        #expect(HTMLText.escape("\u{85}\u{9F}é😀") == "\u{85}\u{9F}é😀")
    }

    @Test func itWorksOnScalarsSoAGraphemeClusterCannotHideAMarkupOrControlCharacter() {
        // "&" + a combining acute accent is one Character, "\r\n" is one, "\u{1}" + a combining
        // mark is one: each scalar is still looked at on its own.
        #expect(HTMLText.escape("&\u{301}") == "&amp;\u{301}")
        #expect(HTMLText.escape("a\r\nb") == "a\r\nb")
        #expect(HTMLText.escape("\u{1}\u{301}") == "\u{FFFD}\u{301}")
        #expect(HTMLText.escape("<"[...]) == "&lt;")  // any StringProtocol: a Substring too
    }
}
