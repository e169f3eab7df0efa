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

    /// Reads a `--catalog` value. Errors never contain the value unredacted.
    package init(parsing value: String) throws(CatalogError) {
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            do throws(PostgresURL.Problem) {
                _ = try PostgresURL(value)
            } catch {
                throw CatalogError.open(path: Self.redact(value), reason: error.description)
            }
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
        if value.contains("="), PostgresURL.keywords.contains(key) {
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

    /// The SQL dialect of the database here.
    package var dialect: CatalogDialect {
        switch self {
        case .sqlite: return .sqlite
        case .postgres: return .postgres
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

    /// `url` with the password of its user info and the values of its `password=` and
    /// `sslpassword=` query parameters replaced by `***`, cut exactly as libpq cuts it
    /// (`PostgresURL`). A URL that ThumbKit refuses (malformed, or read by libpq differently
    /// from what its writer meant) shows as `scheme://***`: too much hidden, never too little.
    /// A password repeated elsewhere in the URL is hidden there too. Text without `://` is
    /// returned as it is.
    package static func redact(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        if let parsed = try? PostgresURL(url) { return scrub(parsed.redacted, secrets: parsed.secrets) }
        return url[..<schemeEnd.upperBound] + "***"
    }

    /// Every form (as written and percent-decoded) of every password in `url`, longest first:
    /// what must be scrubbed from any text that libpq or the server sends back about it.
    package static func secrets(in url: String) -> [String] {
        (try? PostgresURL(url))?.secrets ?? []
    }

    /// Whether `url` is a PostgreSQL URL that gives a password (in its user info or query),
    /// which other users can read on a command line (`/proc/PID/cmdline`).
    package static func holdsPassword(_ url: String) -> Bool {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else { return false }
        // A URL ThumbKit refuses is refused before it is used: warn only about one it takes.
        return (try? PostgresURL(url))?.holdsPassword ?? false
    }

    /// `text` with every secret replaced by `***`.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }
}
