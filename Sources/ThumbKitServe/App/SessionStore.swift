// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// The web app's login sessions, in memory: a session is a random 256-bit id (the cookie) and
/// a random 256-bit CSRF token that every form of the session carries. Sessions end `lifetime`
/// after they were last used; the table holds at most `capacity` sessions, and a new login
/// beyond that ends the least recently used one. A restart ends every session.
package final class SessionStore: Sendable {
    /// One session.
    package struct Session: Sendable, Hashable {
        package let id: String
        package let csrf: String
        package var lastUsed: Date
    }

    /// The cookie's name.
    package static let cookieName = "thumbkit_session"

    private let clock: any WebAppClock
    private let lifetime: TimeInterval
    private let capacity: Int
    /// Guards the session table (session id → session).
    private let sessions = Locked<[String: Session]>([:])

    package init(clock: any WebAppClock, lifetime: TimeInterval = 12 * 3600, capacity: Int = 1000) {
        self.clock = clock
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// Starts a session; nil when no random bytes could be had.
    package func start() -> Session? {
        guard let id = SecureRandom.token(), let csrf = SecureRandom.token() else { return nil }
        let now = clock.now()
        let session = Session(id: id, csrf: csrf, lastUsed: now)
        sessions.withLock { table in
            table = table.filter { now.timeIntervalSince($0.value.lastUsed) < lifetime }
            while table.count >= capacity, let oldest = table.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                table[oldest.key] = nil
            }
            table[id] = session
        }
        return session
    }

    /// The live session named by the request's cookie (and its use recorded), or nil.
    package func session(for request: HTTPRequest) -> Session? {
        guard let id = Self.cookie(Self.cookieName, in: request.headers["Cookie"]) else { return nil }
        let now = clock.now()
        return sessions.withLock { table in
            guard var found = table[id] else { return nil }
            guard now.timeIntervalSince(found.lastUsed) < lifetime else {
                table[id] = nil
                return nil
            }
            found.lastUsed = now
            table[id] = found
            return found
        }
    }

    /// Ends the session `id`.
    package func end(_ id: String) {
        sessions.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Sessions held now (for tests and metrics).
    package var count: Int { sessions.withLock { $0.count } }

    /// The `Set-Cookie` value for `session`: `HttpOnly`, `SameSite=Strict`, `Path=/`, and
    /// `Secure` when the browser reached us through HTTPS.
    package static func setCookie(_ session: Session, secure: Bool) -> String {
        "\(cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that removes the cookie.
    package static func clearCookie(secure: Bool) -> String {
        "\(cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The value of cookie `name` in a `Cookie` header, or nil.
    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            if trimmed[..<equals] == name { return String(trimmed[trimmed.index(after: equals)...]) }
        }
        return nil
    }
}
