// SPDX-License-Identifier: Apache-2.0
/// Where a requested image comes from. Only sources on this machine: the server makes no outbound
/// requests, so `http`, `https`, `s3` and every other scheme are refused. Paths are passed through
/// as written (`..` included): the caller resolves them under its root and refuses escapes.
package enum ImgproxySource: Sendable, Hashable {
    /// `local:///path`: a file under the server's image root (imgproxy's local file system).
    case local(path: String)
    /// `catalog:///path`: an image of the catalog, by its path in the catalog.
    case catalog(path: String)

    /// The source as in the identifier: `local:/path` or `catalog:/path`.
    var canonical: String {
        switch self {
        case .local(let path): "local:\(path)"
        case .catalog(let path): "catalog:\(path)"
        }
    }

    /// Parses a decoded source URL. `local:///a/b.jpg` gives `.local(path: "/a/b.jpg")`.
    init(parsing url: String) throws(ImgproxyError) {
        if url.utf8.contains(0) { throw .invalidSource(reason: "the source contains a NUL byte") }
        guard let colon = url.firstIndex(of: ":") else {
            throw .invalidSource(reason: "the source has no scheme (expected local:/// or catalog:///)")
        }
        let scheme = url[..<colon].lowercased()
        let rest = url[url.index(after: colon)...]
        guard scheme == "local" || scheme == "catalog" else {
            let printable = scheme.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }
            throw .unsupportedSource(scheme: printable && scheme.count <= 32 ? scheme : "?")
        }
        // `local:///path`: an empty authority, then an absolute path. A host (`local://h/p`) is refused.
        guard rest.hasPrefix("///") else {
            throw .invalidSource(reason: "expected \(scheme):/// followed by an absolute path")
        }
        let path = String(rest.dropFirst(2))
        guard path.count > 1 else { throw .invalidSource(reason: "the source path is empty") }
        self = scheme == "local" ? .local(path: path) : .catalog(path: path)
    }
}
