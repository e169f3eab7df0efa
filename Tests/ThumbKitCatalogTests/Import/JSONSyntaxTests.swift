// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// `JSONSyntax` (issue 12, item 18): where and why a file is not JSON, in our own words, and
/// never a complaint about a well-formed file.
struct JSONSyntaxTests {
    @Test(arguments: [
        ("{\"a\": \"\\ud800x\"}", 1, 8, "\\uD800 is not followed by a low surrogate (\\uDC00 to \\uDFFF)"),
        ("{\"a\": \"\\udc00\"}", 1, 8, "\\uDC00 is a low surrogate without a high surrogate before it"),
        ("{\n  \"a\": 1,\n  \"b\": }", 3, 8, "'}' cannot start a value"),
        ("{\"a\": 1,}", 1, 9, "a key (a string in double quotes) is expected"),
        ("[1 2]", 1, 4, "',' or ']' is expected in the list"),
        ("{\"a\": tru}", 1, 7, "unknown word (expected 'true')"),
        ("{\"a\": 01}", 1, 8, "',' or '}' is expected in the object"),
        ("{\"a\": 1.}", 1, 9, "a digit is expected after the decimal point"),
        ("{\"a\": \"x\ty\"}", 1, 9, "control character byte 0x9 in a string (write it as an escape)"),
        ("{\"a\": \"\\q\"}", 1, 8, "unknown escape '\\q' in a string"),
        ("{\"é\": \"", 1, 8, "the document ends inside a string"),
        ("{} {}", 1, 4, "unexpected text after the end of the document"),
        ("", 1, 1, "the document ends where a value was expected"),
    ])
    func eachErrorIsPlacedAndExplained(text: String, line: Int, column: Int, reason: String) {
        let failure = JSONSyntax.firstError(in: Array(text.utf8))
        #expect(failure?.line == line && failure?.column == column, "\(String(describing: failure))")
        #expect(failure?.reason == reason)
    }

    @Test func bytesThatAreNotUTF8AreNamedByOffset() {
        let failure = JSONSyntax.firstError(in: Array("{\"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8))
        #expect(failure?.offset == 7 && failure?.reason == "bytes that are not valid UTF-8 (byte 7 of the file)")
        #expect(JSONSyntax.firstError(in: Array("\"\u{ED}\u{A0}\u{80}\"".utf8)) == nil)  // í, NBSP, U+0080: fine.
        #expect(JSONSyntax.firstError(in: [0x22, 0xED, 0xA0, 0x80, 0x22])?.reason.hasPrefix("bytes that") == true)
    }

    @Test func tooDeepANestingIsRefusedNotAStackOverflow() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONSyntax.firstError(in: Array(deep.utf8))?.reason == "nested more than 512 levels deep")
    }

    @Test(arguments: [
        "{}", "[]", " \n\t{\"a\": [1, -2.5e+3, 0, 0.0, 1E9, true, false, null, \"\\u00e9\\ud83d\\ude00\\n\\/\"]} ",
        "\u{FEFF}{\"bom\": 1}", "\"just a string\"", "{\"é🐞\": \"日本\"}", "-0",
    ])
    func wellFormedDocumentsPassAsJSONDecoderReadsThem(text: String) throws {
        #expect(JSONSyntax.firstError(in: Array(text.utf8)) == nil)
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test func anExportPassesTheCheck() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        try store.write { tx in
            try tx.addBug(title: "Zoë \"the\" \\ bug\u{1}", rating: .zero)
            try tx.addCategory("Pâtes 🍝")
        }
        let data = try CatalogExporter(store: store).data(relativeTo: workspace.root)
        #expect(JSONSyntax.firstError(in: [UInt8](data)) == nil)
    }
}
