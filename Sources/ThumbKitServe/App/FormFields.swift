// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The fields of a submitted form: `application/x-www-form-urlencoded` (`a=1&b=x+y%21`) or, for
/// uploads, `multipart/form-data` (`MultipartForm`). A field given twice keeps its first value.
package struct FormFields: Sendable {
    /// Text fields by name.
    package private(set) var values: [String: String] = [:]
    /// Uploaded files by field name.
    package private(set) var files: [String: MultipartForm.File] = [:]

    package init(values: [String: String] = [:], files: [String: MultipartForm.File] = [:]) {
        self.values = values
        self.files = files
    }

    package subscript(name: String) -> String? { values[name] }

    /// Why a body could not be read as a form (answer 400).
    package struct Malformed: Error, Equatable, Sendable {
        package let reason: String
    }

    /// Parses an urlencoded body. `+` is a space; a bad `%` escape or text that is not UTF-8 is
    /// `Malformed`.
    package static func urlencoded(_ body: [UInt8]) throws(Malformed) -> FormFields {
        var fields = FormFields()
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decode(parts[0])
            let value = parts.count > 1 ? try decode(parts[1]) : ""
            if fields.values[name] == nil { fields.values[name] = value }
        }
        return fields
    }

    /// The form in `request`'s body, by its `Content-Type`: urlencoded (also when none is
    /// given) or multipart.
    package static func parse(_ request: HTTPRequest) throws(Malformed) -> FormFields {
        let type = request.headers["Content-Type"] ?? ""
        if type.lowercased().hasPrefix("multipart/form-data") {
            guard let boundary = MultipartForm.boundary(fromContentType: type) else {
                throw Malformed(reason: "multipart form without a boundary")
            }
            return try MultipartForm.parse(request.body, boundary: boundary)
        }
        return try urlencoded(request.body)
    }

    mutating func add(value: String, for name: String) {
        if values[name] == nil { values[name] = value }
    }

    mutating func add(file: MultipartForm.File, for name: String) {
        if files[name] == nil { files[name] = file }
    }

    /// Percent-decodes one urlencoded part.
    private static func decode(_ part: ArraySlice<UInt8>) throws(Malformed) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(part.count)
        var index = part.startIndex
        while index < part.endIndex {
            let byte = part[index]
            if byte == UInt8(ascii: "+") {
                out.append(0x20)
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < part.endIndex, let high = hex(part[index + 1]), let low = hex(part[index + 2]) else {
                    throw Malformed(reason: "bad percent escape in a form field")
                }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw Malformed(reason: "a form field is not UTF-8")
        }
        return text
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
