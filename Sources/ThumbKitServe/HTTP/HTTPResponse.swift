// SPDX-License-Identifier: Apache-2.0
/// One HTTP answer: a status, header fields and a body. The server adds `Date`,
/// `Content-Length` and, once it shuts down, `Connection: close`.
package struct HTTPResponse: Sendable {
    package var status: HTTPStatus
    package var headers: [(String, String)]
    package var body: [UInt8]

    package init(status: HTTPStatus, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A one-line `text/plain` answer that no cache keeps: `line`, or the status's reason
    /// phrase. Error answers are built with this, so none carries more than one line.
    package static func text(_ status: HTTPStatus, _ line: String? = nil) -> HTTPResponse {
        let text = (line ?? status.reason).split(whereSeparator: \.isNewline).joined(separator: " ")
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
            body: Array((text + "\n").utf8))
    }

    /// The value of the first header field named `name` (any case), or nil.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.0.lowercased() == lowered }?.1
    }
}
