// SPDX-License-Identifier: Apache-2.0
/// Why an imgproxy URL, its signature, a preset file or a signing key was refused. Each case
/// carries the token involved so that the message can quote it; `status` is the HTTP answer.
package enum ImgproxyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request target has no signature segment, or nothing after it.
    case malformedPath(reason: String)
    /// The signature does not match the path under any key (or is not valid base64url).
    case invalidSignature
    /// An option name that imgproxy does not have, or that ThumbKit does not implement.
    case unknownOption(name: String)
    /// An option with more arguments than it takes.
    case tooManyArguments(option: String, count: Int)
    /// An argument that does not parse or is out of range; `expected` says what would do.
    case invalidArgument(option: String, value: String, expected: String)
    /// `pr:NAME` with a NAME that no preset defines.
    case unknownPreset(name: String)
    /// Presets that expand to more options than `ImgproxyURLParser.maxAppliedOptions`.
    case presetExpansionTooLarge(count: Int)
    /// A line of a presets file that is not `name=option/option…`.
    case invalidPreset(line: Int, reason: String)
    /// The source part is missing, or not decodable (percent-encoding, base64url, UTF-8, NUL).
    case invalidSource(reason: String)
    /// A source with a scheme other than `local` and `catalog`: the server makes no outbound requests.
    case unsupportedSource(scheme: String)
    /// A `@ext`, `.ext` or `f:` format that ThumbKit does not write.
    case unsupportedFormat(name: String)
    /// A signing key or salt that is not usable (never quotes the key or salt).
    case invalidKey(reason: String)

    /// 403 for a bad signature, 400 for everything a request can get wrong, 500 for configuration.
    package var status: HTTPStatus {
        switch self {
        case .invalidSignature: .forbidden
        case .invalidPreset, .invalidKey: .internalServerError
        default: .badRequest
        }
    }

    /// One line, lower-case, without a final period.
    package var description: String {
        switch self {
        case .malformedPath(let reason): "malformed path: \(reason)"
        case .invalidSignature: "invalid signature"
        case .unknownOption(let name): "unknown option '\(name)'"
        case .tooManyArguments(let option, let count): "option '\(option)' takes at most \(count) arguments"
        case .invalidArgument(let option, let value, let expected):
            "invalid argument '\(value)' for option '\(option)': expected \(expected)"
        case .unknownPreset(let name): "unknown preset '\(name)'"
        case .presetExpansionTooLarge(let count): "presets expand to more than \(count) options"
        case .invalidPreset(let line, let reason): "presets line \(line): \(reason)"
        case .invalidSource(let reason): "invalid source: \(reason)"
        case .unsupportedSource(let scheme):
            "unsupported source scheme '\(scheme)': only local:/// and catalog:/// sources are served"
        case .unsupportedFormat(let name): "unsupported format '\(name)': expected jpg, jpeg, png, webp or avif"
        case .invalidKey(let reason): "invalid signing key: \(reason)"
        }
    }
}
