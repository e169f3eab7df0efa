// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitServe

/// Urlencoded and multipart forms: what browsers send, and what they never should (400, no crash).
struct FormFieldsTests {
    @Test func urlencodedFieldsAreDecoded() throws {
        let form = try FormFields.urlencoded(Array("title=Potato+Bug%21&rating=3.5&csrf=a%2Bb&title=second&flag".utf8))
        #expect(form["title"] == "Potato Bug!" && form["rating"] == "3.5" && form["csrf"] == "a+b")
        #expect(form["flag"] == "")
    }

    @Test(arguments: ["a=%", "a=%4", "a=%zz", "a=%ff"]) func badEscapesAreMalformed(body: String) {
        #expect(throws: FormFields.Malformed.self) { try FormFields.urlencoded(Array(body.utf8)) }
    }

    static func multipart(_ parts: [String], boundary: String = "XyZ", closing: Bool = true) -> [UInt8] {
        var text = parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined()
        if closing { text += "--\(boundary)--\r\n" }
        return Array(text.utf8)
    }

    @Test func multipartFieldsAndFilesAreRead() throws {
        let body = Self.multipart([
            "Content-Disposition: form-data; name=\"csrf\"\r\n\r\ntok",
            "Content-Disposition: form-data; name=\"title\"\r\n\r\nline one\r\nline two",
            "Content-Disposition: form-data; name=\"picture\"; filename=\"a;b \\\"c\\\".png\"\r\n"
                + "Content-Type: image/png\r\n\r\n\u{1}\u{2}--XyZ not a boundary",
            "Content-Disposition: form-data; name=\"empty\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n",
        ])
        let form = try MultipartForm.parse(body, boundary: "XyZ")
        #expect(form["csrf"] == "tok")
        #expect(form["title"] == "line one\r\nline two")
        let file = try #require(form.files["picture"])
        #expect(file.filename == "a;b \"c\".png" && file.contentType == "image/png")
        #expect(file.bytes == Array("\u{1}\u{2}--XyZ not a boundary".utf8))
        #expect(form.files["empty"] == nil)
    }

    @Test func theBoundaryComesFromTheContentTypeQuotedOrNot() {
        #expect(MultipartForm.boundary(fromContentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(
            MultipartForm.boundary(fromContentType: "multipart/form-data; charset=utf-8; boundary=\"a b\"") == "a b")
        #expect(MultipartForm.boundary(fromContentType: "multipart/form-data") == nil)
        #expect(MultipartForm.boundary(fromContentType: "multipart/form-data; boundary=") == nil)
    }

    @Test(arguments: [
        ("no closing boundary", multipart(["Content-Disposition: form-data; name=\"a\"\r\n\r\nx"], closing: false)),
        ("no header end", Array("--XyZ\r\nContent-Disposition: form-data; name=\"a\"".utf8)),
        ("no name", multipart(["Content-Disposition: form-data\r\n\r\nx"])),
        ("not form-data", multipart(["Content-Disposition: attachment; name=\"a\"\r\n\r\nx"])),
        ("another boundary", multipart(["Content-Disposition: form-data; name=\"a\"\r\n\r\nx"], boundary: "Other")),
        ("header without colon", multipart(["Content-Disposition form-data\r\n\r\nx"])),
        ("garbage after boundary", Array("--XyZjunk".utf8)),
        ("empty", []),
        ("boundary only", Array("--XyZ".utf8)),
        (
            "too many parts",
            multipart(Array(repeating: "Content-Disposition: form-data; name=\"a\"\r\n\r\nx", count: 65))
        ),
    ])
    func malformedFormsAreRefusedNotCrashedOn(label: String, body: [UInt8]) {
        #expect(throws: FormFields.Malformed.self, "\(label)") { try MultipartForm.parse(body, boundary: "XyZ") }
    }

    @Test func aRequestIsParsedByItsContentType() throws {
        var headers = HTTPHeaders()
        headers.append("Content-Type", "multipart/form-data; boundary=XyZ")
        let request = HTTPRequest(
            method: "POST", target: "/x", headers: headers,
            body: Self.multipart(["Content-Disposition: form-data; name=\"a\"\r\n\r\n1"]))
        #expect(try FormFields.parse(request)["a"] == "1")
        var bad = HTTPHeaders()
        bad.append("Content-Type", "multipart/form-data")
        #expect(throws: FormFields.Malformed.self) {
            try FormFields.parse(HTTPRequest(method: "POST", target: "/x", headers: bad, body: [1]))
        }
        #expect(try FormFields.parse(HTTPRequest(method: "POST", target: "/x", body: Array("a=2".utf8)))["a"] == "2")
    }

    @Test(arguments: [
        ("de-DE,de;q=0.9,en;q=0.8", "de", "3,5"), ("en-US,en;q=0.9", "en", "3.5"), ("fr;q=0.4, es;q=0.8", "es", "3,5"),
        ("ja, de;q=0.5", "de", "3,5"), ("", "en", "3.5"), ("xx, *", "en", "3.5"),
    ])
    func numbersFollowTheBrowsersLanguage(header: String, code: String, text: String) {
        let language = PageLanguage(acceptLanguage: header)
        #expect(language.code == code)
        #expect(language.number(3.5) == text)
        #expect(language.number(4) == "4")
        #expect(language.number(2.333) == (code == "en" ? "2.33" : "2,33"))
    }
}
