// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Where a catalog lives, as given to `--catalog`: an SQLite file, or a PostgreSQL database
/// named by a `postgres://` or `postgresql://` URL (handed to libpq as it is, so `PG*`
/// environment variables, `sslmode`, `.pgpass` and unix-socket hosts all work).
///
/// libpq's keyword/value strings (`host=… dbname=…`) are refused rather than taken for a file
/// name: only URLs and paths are locations. Write `./host=x` for a file that really has such a
/// name. Print a location only through `redacted` (or `description`, which is the same), never
/// the raw URL: it may hold a password.
package enum CatalogLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite database file.
    case sqlite(path: String)
    /// A PostgreSQL database URL, exactly as the user gave it.
    case postgres(url: String)

    /// libpq connection keywords: a value starting with `keyword=` is a keyword/value string.
    private static let conninfoKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service", "options",
        "sslmode", "sslcert", "sslkey", "sslrootcert", "sslpassword", "application_name",
        "connect_timeout", "client_encoding", "target_session_attrs", "channel_binding", "gssencmode",
        "requiressl", "sslcompression", "krbsrvname", "keepalives", "fallback_application_name",
    ]

    /// Query-string parameters whose values are secrets.
    private static let secretParameters: Set<String> = ["password", "sslpassword"]

    /// Reads a `--catalog` value. Errors never contain the value unredacted.
    package init(parsing value: String) throws(CatalogError) {
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            self = .postgres(url: value)
            return
        }
        if let scheme = Self.urlScheme(of: value) {
            throw CatalogError.open(
                path: Self.redact(value),
                reason: "unsupported url scheme \"\(scheme)\": give a postgres:// or postgresql:// url, or a file path")
        }
        guard !value.isEmpty else { throw CatalogError.open(path: "--catalog", reason: "empty catalog location") }
        let key = value.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces).lowercased()
        if value.contains("="), Self.conninfoKeywords.contains(key) {
            throw CatalogError.open(
                path: "--catalog",
                reason:
                    "keyword/value connection strings are not accepted: give a postgres:// url (or ./\(key)=… for a file)"
            )
        }
        self = .sqlite(path: value)
    }

    /// The location for messages: the path, or the URL with every password replaced by `***`.
    package var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return Self.redact(url)
        }
    }

    /// Same as `redacted`.
    package var description: String { redacted }

    /// `scheme` when `text` starts with `scheme://`.
    private static func urlScheme(of text: String) -> String? {
        guard let range = text.range(of: "://") else { return nil }
        let scheme = text[..<range.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
        else { return nil }
        return String(scheme)
    }

    /// `url` with the password of its user info (`user:password@`) and the values of its
    /// `password=` and `sslpassword=` query parameters replaced by `***`. The user info runs to
    /// the last `@` before the query, so a password holding a raw `@` or `/` is still hidden (a
    /// little too much may be hidden from a malformed URL, never too little), and so is any
    /// other occurrence of a password in the URL. Text without `://` is returned as it is.
    package static func redact(_ url: String) -> String {
        let parts = split(url)
        guard let parts else { return url }
        var result = parts.prefix
        if let user = parts.user { result += user + (parts.password == nil ? "" : ":***") + "@" }
        result += parts.rest
        if let query = parts.query {
            let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
                guard let eq = item.firstIndex(of: "=") else { return String(item) }
                let key = String(item[..<eq])
                let name = (key.removingPercentEncoding ?? key).lowercased()
                return secretParameters.contains(name) ? key + "=***" : String(item)
            }
            result += "?" + items.joined(separator: "&")
        }
        // A password repeated elsewhere in the URL (a malformed one) is hidden there too.
        return scrub(result, secrets: secrets(in: url))
    }

    /// Every form (as written and percent-decoded) of every password in `url`, longest first:
    /// what must be scrubbed from any text that libpq or the server sends back about it.
    package static func secrets(in url: String) -> [String] {
        guard let parts = split(url) else { return [] }
        var found: [String] = []
        if let password = parts.password { found.append(password) }
        for item in (parts.query ?? "").split(separator: "&") {
            guard let eq = item.firstIndex(of: "=") else { continue }
            let key = String(item[..<eq])
            if secretParameters.contains((key.removingPercentEncoding ?? key).lowercased()) {
                found.append(String(item[item.index(after: eq)...]))
            }
        }
        let forms = found.flatMap {
            [$0, $0.removingPercentEncoding ?? $0, $0.replacingOccurrences(of: "+", with: " ")]
        }
        return Array(Set(forms.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// `text` with every secret replaced by `***`.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// A URL cut into `scheme://`, user, password, the rest up to the query, and the query.
    private static func split(
        _ url: String
    ) -> (prefix: String, user: String?, password: String?, rest: String, query: String?)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let prefix = String(url[..<schemeEnd.upperBound])
        let body = url[schemeEnd.upperBound...]
        let queryStart = body.firstIndex(of: "?")
        let beforeQuery = body[..<(queryStart ?? body.endIndex)]
        let query = queryStart.map { String(body[body.index(after: $0)...]) }
        guard let at = beforeQuery.lastIndex(of: "@") else {
            return (prefix, nil, nil, String(beforeQuery), query)
        }
        let userinfo = beforeQuery[..<at]
        let rest = String(beforeQuery[beforeQuery.index(after: at)...])
        guard let colon = userinfo.firstIndex(of: ":") else { return (prefix, String(userinfo), nil, rest, query) }
        let password = String(userinfo[userinfo.index(after: colon)...])
        return (prefix, String(userinfo[..<colon]), password, rest, query)
    }
}
