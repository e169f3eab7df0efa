// SPDX-License-Identifier: Apache-2.0
/// The HTTP status codes `thumbkit serve` answers with, and their reason phrases.
package enum HTTPStatus: Int, Sendable, Hashable, CaseIterable {
    case ok = 200
    case seeOther = 303
    case notModified = 304
    case badRequest = 400
    case unauthorized = 401
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case payloadTooLarge = 413
    case uriTooLong = 414
    case unprocessableContent = 422
    case tooManyRequests = 429
    case requestHeaderFieldsTooLarge = 431
    case internalServerError = 500
    case serviceUnavailable = 503

    /// The reason phrase (RFC 9110), also the one-line body of an error answer.
    package var reason: String {
        switch self {
        case .ok: "OK"
        case .seeOther: "See Other"
        case .notModified: "Not Modified"
        case .badRequest: "Bad Request"
        case .unauthorized: "Unauthorized"
        case .forbidden: "Forbidden"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .payloadTooLarge: "Content Too Large"
        case .uriTooLong: "URI Too Long"
        case .unprocessableContent: "Unprocessable Content"
        case .tooManyRequests: "Too Many Requests"
        case .requestHeaderFieldsTooLarge: "Request Header Fields Too Large"
        case .internalServerError: "Internal Server Error"
        case .serviceUnavailable: "Service Unavailable"
        }
    }
}
