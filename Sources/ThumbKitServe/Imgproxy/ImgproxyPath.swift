// SPDX-License-Identifier: Apache-2.0
/// A request target split into the signature and the signed path, by position: the signature is
/// the first path segment and the path is everything after it, whatever text it contains.
/// (Removing the signature by string replacement would also remove it from a later segment that
/// repeats it, and verify a different path than the one parsed; see GHSA-mw3h-qjxj-6xg9.)
package struct ImgproxyPath: Sendable, Hashable {
    /// The first segment, as written.
    package let signature: String
    /// Everything after the signature segment, starting with `/`: the text that is signed and parsed.
    package let path: String

    /// Splits a raw request target (`/{signature}/{options}/plain/{source}?query`, still
    /// percent-encoded). The query is dropped. As imgproxy does, it undoes two rewrites some
    /// proxies make before the path is verified: `%3A` back to `:` in the options, and
    /// `scheme:/x` back to `scheme://x` (`local:///x` for `local`) at the start of a plain source.
    package init(requestTarget: some StringProtocol) throws(ImgproxyError) {
        var target = Substring(requestTarget)
        if let query = target.firstIndex(of: "?") { target = target[..<query] }
        if target.hasPrefix("/") { target = target.dropFirst() }
        guard let slash = target.firstIndex(of: "/") else {
            throw .malformedPath(reason: "expected /{signature}/{options}/{source}")
        }
        let signature = target[..<slash]
        let rest = target[target.index(after: slash)...]
        guard !signature.isEmpty, !rest.isEmpty else {
            throw .malformedPath(reason: "expected /{signature}/{options}/{source}")
        }
        self.signature = String(signature)
        self.path = "/" + Self.redenormalized(rest)
    }

    /// imgproxy's `RedenormalizePath`, on the path without its leading `/`.
    static func redenormalized(_ path: Substring) -> String {
        let options: Substring
        let plain: Substring?
        if path.hasPrefix("plain/") {
            options = ""
            plain = path.dropFirst(6)
        } else if let range = path.firstRange(of: "/plain/") {
            options = path[..<range.lowerBound]
            plain = path[range.upperBound...]
        } else {
            options = path
            plain = nil
        }
        let fixedOptions = String(options.replacing("%3A", with: ":").replacing("%3a", with: ":"))
        guard let plain else { return fixedOptions }
        return (fixedOptions.isEmpty ? "" : fixedOptions + "/") + "plain/" + fixedScheme(plain)
    }

    /// `http:/x` → `http://x`, `local:/x` → `local:///x`; anything else unchanged.
    private static func fixedScheme(_ source: Substring) -> String {
        guard let colon = source.firstIndex(of: ":") else { return String(source) }
        let scheme = source[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return String(source) }
        let after = source[source.index(after: colon)...]
        guard after.hasPrefix("/"), !after.dropFirst().hasPrefix("/"), after.count > 1 else { return String(source) }
        return String(scheme) + (scheme == "local" ? ":///" : "://") + String(after.dropFirst())
    }
}
