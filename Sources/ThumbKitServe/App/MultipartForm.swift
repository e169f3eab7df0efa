// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `multipart/form-data` (RFC 7578) as browsers send it: parts separated by `--BOUNDARY` lines,
/// each with a `Content-Disposition: form-data; name="…"` header (and `filename="…"` for a file),
/// then CRLF CRLF and the content, up to CRLF `--BOUNDARY`; the last boundary ends with `--`.
/// Anything else (no closing boundary, a part without a name or header end, too many parts) is
/// `FormFields.Malformed`, never a crash. The body's size was capped by the server before it
/// was read.
package enum MultipartForm {
    /// An uploaded file.
    package struct File: Sendable, Hashable {
        /// The name the browser gave (never used as a path).
        package var filename: String
        package var contentType: String?
        package var bytes: [UInt8]
    }

    /// Parts allowed in one form.
    static let maxParts = 64

    /// The `boundary` parameter of a `multipart/form-data` content type (quoted or not), or nil.
    package static func boundary(fromContentType type: String) -> String? {
        for parameter in type.split(separator: ";").dropFirst() {
            let trimmed = parameter.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix("boundary=") else { continue }
            var value = trimmed.dropFirst("boundary=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            guard (1...70).contains(value.count) else { return nil }
            return String(value)
        }
        return nil
    }

    /// Parses `body` with `boundary`.
    package static func parse(_ body: [UInt8], boundary: String) throws(FormFields.Malformed) -> FormFields {
        let delimiter = Array(("--" + boundary).utf8)
        let separator = Array(("\r\n--" + boundary).utf8)
        guard body.starts(with: delimiter) else { throw malformed("the form does not start with its boundary") }
        var fields = FormFields()
        var cursor = delimiter.count
        var parts = 0
        while true {
            // After a boundary: `--` ends the form, CRLF starts a part.
            if body[cursor...].starts(with: Array("--".utf8)) { return fields }
            guard body[cursor...].starts(with: [13, 10]) else { throw malformed("a boundary is not followed by CRLF") }
            cursor += 2
            parts += 1
            guard parts <= maxParts else { throw malformed("more than \(maxParts) parts") }
            guard let headerEnd = find([13, 10, 13, 10], in: body, from: cursor) else {
                throw malformed("a part has no end of header")
            }
            let header = String(decoding: body[cursor..<headerEnd], as: UTF8.self)
            guard let contentEnd = find(separator, in: body, from: headerEnd + 4) else {
                throw malformed("the form has no closing boundary")
            }
            let content = Array(body[(headerEnd + 4)..<contentEnd])
            cursor = contentEnd + separator.count
            let (name, filename, type) = try partHeader(header)
            if let filename {
                // A file input left empty sends an empty file with an empty name: no file.
                if !(filename.isEmpty && content.isEmpty) {
                    fields.add(file: File(filename: filename, contentType: type, bytes: content), for: name)
                }
            } else {
                guard let text = String(validating: content, as: UTF8.self) else {
                    throw malformed("field '\(name)' is not UTF-8")
                }
                fields.add(value: text, for: name)
            }
        }
    }

    /// The name, file name and content type from a part's header lines.
    private static func partHeader(_ header: String) throws(FormFields.Malformed) -> (String, String?, String?) {
        var name: String?
        var filename: String?
        var type: String?
        for line in header.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw malformed("a part's header line has no colon") }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if field == "content-type" { type = value }
            guard field == "content-disposition" else { continue }
            let parameters = parameters(value)
            guard parameters.first?.key.lowercased() == "form-data" else {
                throw malformed("a part is not form-data")
            }
            name = parameters.first { $0.key.lowercased() == "name" }?.value
            filename = parameters.first { $0.key.lowercased() == "filename" }?.value
        }
        guard let name, !name.isEmpty else { throw malformed("a part has no name") }
        return (name, filename, type)
    }

    /// `form-data; name="a;b"; filename=x.png` → [("form-data", ""), ("name", "a;b"), ("filename", "x.png")].
    /// Quoted values may hold `;` and `\"`.
    static func parameters(_ text: String) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        var chars = Substring(text)
        while !chars.isEmpty {
            chars = chars.drop { $0 == " " || $0 == ";" }
            let key = chars.prefix { $0 != "=" && $0 != ";" }
            chars = chars.dropFirst(key.count)
            var value = ""
            if chars.first == "=" {
                chars = chars.dropFirst()
                if chars.first == "\"" {
                    chars = chars.dropFirst()
                    while let c = chars.first, c != "\"" {
                        if c == "\\", chars.count > 1 {
                            value.append(chars.dropFirst().first!)
                            chars = chars.dropFirst(2)
                        } else {
                            value.append(c)
                            chars = chars.dropFirst()
                        }
                    }
                    chars = chars.dropFirst()
                } else {
                    let plain = chars.prefix { $0 != ";" }
                    value = String(plain).trimmingCharacters(in: .whitespaces)
                    chars = chars.dropFirst(plain.count)
                }
            }
            let trimmedKey = key.trimmingCharacters(in: .whitespaces)
            if !trimmedKey.isEmpty { result.append((trimmedKey, value)) }
        }
        return result
    }

    /// The first index of `needle` in `haystack` at or after `start`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func malformed(_ reason: String) -> FormFields.Malformed {
        FormFields.Malformed(reason: "malformed multipart form: " + reason)
    }
}
