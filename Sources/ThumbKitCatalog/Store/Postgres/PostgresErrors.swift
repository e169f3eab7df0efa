// SPDX-License-Identifier: Apache-2.0
/// How libpq's and the server's failures become `CatalogError`s, in one place.
///
/// Every error's `path` is the redacted URL, and every message is scrubbed of the URL's
/// passwords before it goes anywhere (libpq does not normally repeat a password, but some of
/// its URL parse errors quote the part of the URL they could not read).
///
/// The classification reads libpq's English messages: a client or server running with
/// translated messages (`lc_messages`) still gets one clear line, classified as "cannot
/// connect" instead of the finer cases.
enum PostgresFailure: Equatable {
    /// No server answered: connection refused, no such host or socket, timeout.
    case unreachable
    /// The server answered and refused the login: wrong or missing password, unknown role,
    /// no `pg_hba.conf` line.
    case authenticationFailed
    /// The login worked but the database does not exist.
    case databaseMissing
    /// Anything else.
    case other

    /// Reads a libpq connection failure message.
    static func classify(_ message: String) -> PostgresFailure {
        let m = message.lowercased()
        if m.contains("database \"") && m.contains("\" does not exist") { return .databaseMissing }
        let authentication = [
            "password authentication failed", "authentication failed", "no password supplied",
            "no pg_hba.conf entry", "pg_hba.conf rejects", "does not exist",  // role "x" does not exist
        ]
        if authentication.contains(where: m.contains) { return .authenticationFailed }
        let unreachable = [
            "connection refused", "could not translate host name", "no such file or directory",
            "timeout expired", "timed out", "network is unreachable", "no route to host",
            "could not connect", "name or service not known", "temporary failure in name resolution",
            "server closed the connection unexpectedly", "the database system is starting up",
            "the database system is shutting down",
        ]
        if unreachable.contains(where: m.contains) { return .unreachable }
        return .other
    }

    /// libpq's (often multi-line) message as one lower-case-led line without a final period,
    /// with the hints and the `FATAL:` / `ERROR:` prefixes dropped and the secrets scrubbed.
    static func oneLine(_ message: String, secrets: [String]) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { line -> String in
            var text = line.trimmingCharacters(in: .whitespaces)
            for prefix in ["FATAL:", "ERROR:"] where text.hasPrefix(prefix) {
                text = String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            }
            return text
        }.filter { !$0.isEmpty && !$0.hasPrefix("Is the server running") }
        var text = lines.joined(separator: "; ")
        while text.hasSuffix(".") { text.removeLast() }
        text = CatalogLocation.scrub(text, secrets: secrets)
        guard let first = text.first else { return "no message from libpq" }
        return first.lowercased() + text.dropFirst()
    }

    /// The error for a connection that could not be opened (or reset).
    static func connectError(_ message: String, location: String, secrets: [String]) -> CatalogError {
        let detail = oneLine(message, secrets: secrets)
        switch classify(message) {
        case .unreachable: return .open(path: location, reason: "server unreachable: \(detail)")
        case .authenticationFailed: return .open(path: location, reason: "authentication failed: \(detail)")
        case .databaseMissing: return .notFound(path: location, reason: "database missing: \(detail)")
        case .other: return .open(path: location, reason: "cannot connect: \(detail)")
        }
    }

    /// The error for a failed statement, from its SQLSTATE and message.
    static func statementError(
        sqlstate: String, message: String, sql: String?, location: String, secrets: [String]
    ) -> CatalogError {
        let detail = oneLine(message, secrets: secrets)
        let class2 = sqlstate.prefix(2)
        switch sqlstate {
        case "40P01", "40001", "55P03", "57014":
            // deadlock, serialization failure, lock_timeout, statement_timeout
            return .locked(path: location, reason: "\(detail) (sqlstate \(sqlstate))")
        case "22021", "22P05":
            return .invalidRecord(path: location, reason: detail)
        case "XX001", "XX002":
            return .corrupt(path: location, reason: detail)
        case "3D000":
            return .notFound(path: location, reason: "database missing: \(detail)")
        case "57P01", "57P02", "57P03":
            return .open(path: location, reason: "connection lost: \(detail)")
        default: break
        }
        switch class2 {
        case "23": return .constraint(path: location, reason: detail)
        case "08": return .open(path: location, reason: "connection lost: \(detail)")
        case "28": return .open(path: location, reason: "authentication failed: \(detail)")
        default:
            return .database(path: location, reason: sql.map { "\(detail) (in \($0.prefix(60)))" } ?? detail)
        }
    }
}
