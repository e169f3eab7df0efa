// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// Reads imgproxy's processing URLs (the part after the signature):
/// `/{option}/{option}…/plain/{percent-encoded source}[@{ext}]` or
/// `/{option}…/{base64url source, may be split by /}[.{ext}]`, each option `name:arg[:arg…]`.
/// The preset named `default`, when there is one, applies first; `@ext` or `.ext` applies last.
package struct ImgproxyURLParser: Sendable {
    /// The most options one URL may apply, counting what its presets expand to.
    package static let maxAppliedOptions = 1000

    package let limits: ImgproxyLimits
    package let presets: ImgproxyPresets

    package init(limits: ImgproxyLimits = ImgproxyLimits(), presets: ImgproxyPresets = ImgproxyPresets()) {
        self.limits = limits
        self.presets = presets
    }

    /// Parses `path` (what follows the signature segment, with or without its leading `/`, without
    /// a query). Throws the first problem found, quoting the token involved.
    package func parse(path: some StringProtocol) throws(ImgproxyError) -> ImgproxyRequest {
        var trimmed = Substring(path)
        if trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        guard !trimmed.isEmpty else { throw .malformedPath(reason: "nothing after the signature") }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        if ImgproxyRequest.ResizingType(rawValue: String(parts[0])) != nil {
            throw .malformedPath(reason: "imgproxy's old basic URL format is not supported: use rs:TYPE:W:H/")
        }

        var state = ImgproxyOptionState(limits: limits, presets: presets)
        if presets.options["default"] != nil {
            try state.apply(ImgproxyOption(name: "preset", arguments: ["default"]))
        }
        var sourceStart = parts.endIndex
        for (index, part) in parts.enumerated() {
            guard let option = ImgproxyOption(segment: part) else {
                sourceStart = index
                break
            }
            try state.apply(option)
        }
        guard sourceStart < parts.endIndex else { throw .invalidSource(reason: "the source is missing") }

        let sourceParts = parts[sourceStart...]
        let (url, ext): (String, String?)
        if sourceParts.first == "plain" && sourceParts.count > 1 {
            (url, ext) = try Self.decodePlain(sourceParts.dropFirst())
        } else {
            (url, ext) = try Self.decodeBase64(sourceParts)
        }
        let source = try ImgproxySource(parsing: url)
        if let ext { state.format = try ImgproxyOptionState.format(ext) }

        let request = ImgproxyRequest(
            source: source, resizingType: state.resizingType, width: state.width, height: state.height,
            dpr: state.dpr, enlarge: state.enlarge, extend: state.extend, gravity: state.gravity,
            gravityOffsetX: state.gravityOffsetX, gravityOffsetY: state.gravityOffsetY, quality: state.quality,
            format: state.format, background: state.background)
        for (name, value) in [("width", request.scaledWidth), ("height", request.scaledHeight)]
        where value > limits.maxDimension {
            throw .invalidArgument(
                option: "dpr", value: CanonicalDecimal.format(state.dpr),
                expected: "a \(name) × dpr of at most \(limits.maxDimension) (it is \(value))")
        }
        return request
    }

    /// `plain/{source}[@ext]`: the parts joined by `/`, one `@` at most, then percent-decoded.
    private static func decodePlain(_ parts: ArraySlice<Substring>) throws(ImgproxyError) -> (String, String?) {
        let joined = parts.joined(separator: "/")
        let pieces = joined.split(separator: "@", omittingEmptySubsequences: false)
        guard pieces.count <= 2 else {
            throw .invalidSource(reason: "more than one '@' (write a literal @ in the source as %40)")
        }
        guard !pieces[0].isEmpty else { throw .invalidSource(reason: "the source is empty") }
        guard let url = PercentDecoding.string(pieces[0]) else {
            throw .invalidSource(reason: "invalid percent-encoding or not UTF-8")
        }
        return (url, pieces.count == 2 && !pieces[1].isEmpty ? String(pieces[1]) : nil)
    }

    /// `{base64url}[.ext]`: the parts joined without separator (builders may split long sources
    /// with `/`), one `.` at most, trailing `=` ignored.
    private static func decodeBase64(_ parts: ArraySlice<Substring>) throws(ImgproxyError) -> (String, String?) {
        let joined = parts.joined()
        let pieces = joined.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2 else { throw .invalidSource(reason: "more than one '.' after a base64url source") }
        var encoded = pieces[0]
        while encoded.hasSuffix("=") { encoded = encoded.dropLast() }
        guard !encoded.isEmpty else { throw .invalidSource(reason: "the source is empty") }
        guard let bytes = Base64URL.decode(encoded), let url = String(validating: bytes, as: UTF8.self) else {
            throw .invalidSource(reason: "invalid base64url encoding or not UTF-8")
        }
        return (url, pieces.count == 2 && !pieces[1].isEmpty ? String(pieces[1]) : nil)
    }
}
