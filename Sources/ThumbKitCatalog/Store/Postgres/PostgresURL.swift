// SPDX-License-Identifier: Apache-2.0
import CPostgres
import ThumbKit

/// A `postgres://` or `postgresql://` URL cut exactly as libpq 15 cuts it
/// (`conninfo_uri_parse_options` in `fe-connect.c`), so ThumbKit hides exactly the password
/// that libpq logs in with:
///
/// - the user info ends at the first `@` that comes before any `/` (a `?` does not stop it,
///   so `u:p?w@h` has the password `p?w`); the user name ends at its first `:`, and the
///   password runs from there to that `@` (so it may hold `:` and `?`);
/// - the hosts end at `:`, `/`, `?` or `,`; the ports at `/`, `?` or `,`; the database at `?`;
/// - query parameters are `key=value` joined by `&`, with no second `=`;
/// - every part is percent-decoded (`%00` and a `%` without two hex digits are errors).
///
/// ThumbKit is stricter than libpq where libpq's reading of a hostile password differs from
/// what its writer meant, because libpq then quotes part of that password in its errors
/// (`u:Tr0ub4dor/x@h` is host `u`, port `Tr0ub4dor`): a raw `@` other than the one ending
/// the user info, and a port that is not a number, are refused. Every problem is reported
/// without quoting the URL; `init` also checks that libpq's own parse (`PQconninfoParse`)
/// finds the same password.
struct PostgresURL: Sendable, Hashable {
    /// The URL's bytes.
    let bytes: [UInt8]
    /// Where the password is in `bytes` (after the user name's `:`, up to the `@`).
    let passwordRange: Range<Int>?
    /// Where the values of the `password` and `sslpassword` query parameters are.
    let secretParameterRanges: [Range<Int>]
    /// The password and the query's secret values, percent-decoded (what libpq sends).
    let decodedSecrets: [String]

    /// Why a URL is refused: each says what is wrong and how to write it, without any part of
    /// the URL.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case notAURL
        case strayAt
        case percent(part: String)
        case nul(part: String)
        case ipv6(String)
        case port
        case parameter
        case unknownParameter(String?)
        case libpqDisagrees
        case libpqUnavailable(String)

        var description: String {
            switch self {
            case .notAURL: return "not a postgres:// or postgresql:// url"
            case .libpqUnavailable(let reason): return "PostgreSQL's client library: \(reason)"
            case .strayAt:
                return "malformed url: a raw '@' other than the one ending the user name and password "
                    + "(write '@' as %40 and '/' as %2F in a user name or password)"
            case .percent(let part):
                return "malformed url: a '%' without two hex digits in the \(part) (write '%' as %25)"
            case .nul(let part): return "malformed url: %00 in the \(part)"
            case .ipv6(let what): return "malformed url: \(what)"
            case .port:
                return "malformed url: a port that is not a number "
                    + "(write '/' as %2F and '@' as %40 in a user name or password)"
            case .parameter:
                return "malformed url: a query parameter that is not one key=value "
                    + "(write '&' as %26 and '=' as %3D inside a value)"
            case .unknownParameter(let name?): return "unknown connection parameter \"\(name)\" in the url's query"
            case .unknownParameter(nil): return "unknown connection parameter in the url's query"
            case .libpqDisagrees: return "malformed url: libpq reads its user name or password differently"
            }
        }
    }

    /// The query parameters whose values are secrets.
    static let secretParameters: Set<String> = ["password", "sslpassword"]

    /// Every connection keyword libpq knows (the options of `PQconninfoParse("")`).
    static let keywords: Set<String> = {
        var found: Set<String> = []
        guard LibPQ.unavailable() == nil, let options = PQconninfoParse("", nil) else { return found }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            found.insert(String(cString: keyword))
            option += 1
        }
        return found
    }()

    /// Cuts `url` as libpq does. Throws a `Problem` for anything libpq would refuse or read
    /// differently from what its writer meant (see the type's comment).
    init(_ url: String) throws(Problem) {
        if let reason = LibPQ.unavailable() { throw .libpqUnavailable(reason) }
        let b = Array(url.utf8)
        bytes = b
        guard let prefix = ["postgresql://", "postgres://"].first(where: { url.hasPrefix($0) })?.utf8.count else {
            throw .notAURL
        }
        let at = UInt8(ascii: "@")
        let n = b.count

        // User info: up to the first '@' before any '/'.
        var p = prefix
        while p < n, b[p] != at, b[p] != UInt8(ascii: "/") { p += 1 }
        var designator: Int?
        var parts: [(name: String, range: Range<Int>)] = []
        var password: Range<Int>?
        if p < n, b[p] == at {
            designator = p
            let colon = b[prefix..<p].firstIndex(of: UInt8(ascii: ":"))
            parts.append(("user name", prefix..<(colon ?? p)))
            if let colon {
                password = (colon + 1)..<p
                parts.append(("password", (colon + 1)..<p))
            }
            p += 1
        } else {
            p = prefix
        }

        // Hosts and ports, separated by ','.
        var stop: UInt8? = nil
        var ports: [Range<Int>] = []
        var hostStart = p
        while true {
            if p < n, b[p] == UInt8(ascii: "[") {
                let open = p
                p += 1
                while p < n, b[p] != UInt8(ascii: "]") { p += 1 }
                guard p < n else { throw .ipv6("a '[' without ']' in the host") }
                guard p > open + 1 else { throw .ipv6("an empty IPv6 address in the host") }
                p += 1
                guard p == n || ":/?,".utf8.contains(b[p]) else { throw .ipv6("an unexpected character after ']'") }
            } else {
                while p < n, !":/?,".utf8.contains(b[p]) { p += 1 }
            }
            parts.append(("host", hostStart..<p))
            stop = p < n ? b[p] : nil
            if stop == UInt8(ascii: ":") {
                let start = p + 1
                p = start
                while p < n, !"/?,".utf8.contains(b[p]) { p += 1 }
                ports.append(start..<p)
                parts.append(("port", start..<p))
                stop = p < n ? b[p] : nil
            }
            guard stop == UInt8(ascii: ",") else { break }
            p += 1
            hostStart = p
        }

        // The database name, then the query.
        if let s = stop, s != UInt8(ascii: "?") {
            let start = p + 1
            p = start
            while p < n, b[p] != UInt8(ascii: "?") { p += 1 }
            parts.append(("database name", start..<p))
            stop = p < n ? b[p] : nil
        }
        var parameters: [(key: String, value: String, valueRange: Range<Int>)] = []
        if stop != nil {
            p += 1
            while p < n {
                let start = p
                var equals: Int?
                while p < n, b[p] != UInt8(ascii: "&") {
                    if b[p] == UInt8(ascii: "=") {
                        guard equals == nil else { throw .parameter }
                        equals = p
                    }
                    p += 1
                }
                guard let eq = equals else { throw .parameter }
                let key = try Self.decode(b[start..<eq], part: "query")
                let value = try Self.decode(b[(eq + 1)..<p], part: "query")
                parameters.append((key, value, (eq + 1)..<p))
                if p < n { p += 1 }
            }
        }

        // ThumbKit's stricter rules: one raw '@' at most (libpq's end of the user info), and
        // ports that are numbers.
        for i in prefix..<n where b[i] == at && i != designator { throw .strayAt }
        var decoded: [String: String] = [:]
        for part in parts {
            let text = try Self.decode(b[part.range], part: part.name)
            if part.name == "password" { decoded[part.name] = text }
        }
        for port in ports {
            let text = try Self.decode(b[port], part: "port")
            guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { throw .port }
        }
        let holdsSecret = password != nil || parameters.contains { Self.secretParameters.contains($0.key) }
        for parameter in parameters where !Self.keywords.contains(parameter.key) {
            guard parameter.key == "ssl", parameter.value == "true" else {
                // A key after a secret may be part of a value holding a raw '&': not quoted then.
                throw .unknownParameter(holdsSecret ? nil : parameter.key)
            }
        }
        passwordRange = password
        let secretParameters = parameters.filter { Self.secretParameters.contains($0.key) }
        secretParameterRanges = secretParameters.map(\.valueRange)
        decodedSecrets = (decoded["password"].map { [$0] } ?? []) + secretParameters.map(\.value)

        // libpq itself must take the URL and find the same secrets (a query parameter
        // overrides the user info; an empty user-info password is not stored).
        guard let options = PQconninfoParse(url, nil) else { throw .libpqDisagrees }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            let name = String(cString: keyword)
            if Self.secretParameters.contains(name) {
                let fromUserInfo = name == "password" ? decoded["password"].flatMap { $0.isEmpty ? nil : $0 } : nil
                let expected = secretParameters.last { $0.key == name }?.value ?? fromUserInfo
                guard option.pointee.val.map({ String(cString: $0) }) == expected else { throw .libpqDisagrees }
            }
            option += 1
        }
    }

    /// `part` percent-decoded as libpq decodes it; `%00` is refused.
    private static func decode(_ part: ArraySlice<UInt8>, part name: String) throws(Problem) -> String {
        guard let out = PercentDecoding.bytes(part) else { throw .percent(part: name) }
        // More NULs after decoding than before: a `%00`.
        guard out.count(where: { $0 == 0 }) == part.count(where: { $0 == 0 }) else { throw .nul(part: name) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the URL gives a password (in its user info or its query): it should not be on
    /// a command line.
    var holdsPassword: Bool { passwordRange != nil || !secretParameterRanges.isEmpty }

    /// The URL with the password and the secret parameters' values replaced by `***`.
    var redacted: String {
        var ranges = secretParameterRanges
        if let passwordRange { ranges.append(passwordRange) }
        var out: [UInt8] = []
        var i = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            out += bytes[i..<range.lowerBound]
            out += Array("***".utf8)
            i = range.upperBound
        }
        out += bytes[i...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Every form of every secret (as written and percent-decoded), longest first: what must
    /// be scrubbed from any text libpq or the server sends back.
    var secrets: [String] {
        var ranges = secretParameterRanges
        if let passwordRange { ranges.append(passwordRange) }
        let raw = ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
        return Array(Set((raw + decodedSecrets).filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }
}
