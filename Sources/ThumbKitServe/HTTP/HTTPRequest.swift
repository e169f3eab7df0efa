// SPDX-License-Identifier: Apache-2.0
/// One HTTP request as the server received it: the request target exactly as sent (neither
/// percent-decoded nor normalised, so that a signature covers the bytes the client signed), the
/// header fields, and the body.
package struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`, …
    package var method: String
    /// The request target as sent: `/path?query`.
    package var target: String
    /// The header fields, looked up without regard to case.
    package var headers: HTTPHeaders
    /// The body (empty for `GET` and `HEAD`); never longer than the server's body limit.
    package var body: [UInt8]
    /// The peer's address, `127.0.0.1` or `::1`, or "" when unknown.
    package var peer: String

    package init(
        method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], peer: String = ""
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    /// The target up to its `?`, still percent-encoded.
    package var path: String {
        if let mark = target.firstIndex(of: "?") { return String(target[..<mark]) }
        return target
    }

    /// The target after its `?` (without it), or "".
    package var query: String {
        if let mark = target.firstIndex(of: "?") { return String(target[target.index(after: mark)...]) }
        return ""
    }
}

/// Header fields in the order received; `headers["accept"]` finds `Accept`. Repeated fields are
/// joined with ", " (RFC 9110 §5.3), except `Cookie`, joined with "; ".
package struct HTTPHeaders: Sendable {
    package private(set) var fields: [(name: String, value: String)] = []

    package init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    package mutating func append(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    package subscript(name: String) -> String? {
        let lowered = name.lowercased()
        let values = fields.filter { $0.name.lowercased() == lowered }.map(\.value)
        guard !values.isEmpty else { return nil }
        return values.joined(separator: lowered == "cookie" ? "; " : ", ")
    }

    /// The bytes the fields took on the wire, roughly: names, values and separators.
    package var byteCount: Int {
        fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }
}
