// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKitServe

/// Sessions (cookie attributes, expiry, the cap) and the login rate limit, on a fake clock.
struct SessionAndLimiterTests {
    func request(cookie: String?) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let cookie { headers.append("Cookie", cookie) }
        return HTTPRequest(method: "GET", target: "/bugs", headers: headers, peer: "127.0.0.1")
    }

    @Test func theCookieIsHttpOnlyStrictAndSecureOnlyBehindHTTPS() throws {
        let store = SessionStore(clock: FakeClock())
        let session = try #require(store.start())
        #expect(session.id.count == 43 && session.csrf.count == 43 && session.id != session.csrf)
        let plain = SessionStore.setCookie(session, secure: false)
        #expect(plain == "thumbkit_session=\(session.id); Path=/; HttpOnly; SameSite=Strict")
        #expect(SessionStore.setCookie(session, secure: true).hasSuffix("; SameSite=Strict; Secure"))
    }

    @Test func aSessionIsFoundByItsCookieAndEndsWhenUnusedForItsLifetime() throws {
        let clock = FakeClock()
        let store = SessionStore(clock: clock, lifetime: 100)
        let session = try #require(store.start())
        #expect(store.session(for: request(cookie: "a=b; thumbkit_session=\(session.id)"))?.id == session.id)
        #expect(store.session(for: request(cookie: "thumbkit_session=\(session.id)x")) == nil)
        #expect(store.session(for: request(cookie: nil)) == nil)
        clock.advance(90)
        #expect(store.session(for: request(cookie: "thumbkit_session=\(session.id)")) != nil)  // used: renewed
        clock.advance(90)
        #expect(store.session(for: request(cookie: "thumbkit_session=\(session.id)")) != nil)
        clock.advance(101)
        #expect(store.session(for: request(cookie: "thumbkit_session=\(session.id)")) == nil)
    }

    @Test func theTableIsCappedByEndingTheLeastRecentlyUsed() throws {
        let clock = FakeClock()
        let store = SessionStore(clock: clock, capacity: 3)
        var ids: [String] = []
        for _ in 0..<5 {
            ids.append(try #require(store.start()).id)
            clock.advance(1)
        }
        #expect(store.count == 3)
        #expect(store.session(for: request(cookie: "thumbkit_session=\(ids[0])")) == nil)
        #expect(store.session(for: request(cookie: "thumbkit_session=\(ids[4])")) != nil)
    }

    @Test func fiveFailuresInAMinuteLockOutThatAddressUntilTheOldestLeavesTheWindow() {
        let clock = FakeClock()
        let limiter = LoginRateLimiter(clock: clock, maxFailures: 5, window: 60)
        for _ in 0..<4 {
            #expect(limiter.retryAfter(client: "10.0.0.1") == nil)
            limiter.fail(client: "10.0.0.1")
            clock.advance(10)
        }
        limiter.fail(client: "10.0.0.1")  // the fifth, 40 s after the first
        #expect(limiter.retryAfter(client: "10.0.0.1") == 20)
        #expect(limiter.retryAfter(client: "10.0.0.2") == nil)
        clock.advance(19)
        #expect(limiter.retryAfter(client: "10.0.0.1") == 1)
        clock.advance(1.5)
        #expect(limiter.retryAfter(client: "10.0.0.1") == nil)
    }

    @Test func aSuccessClearsTheAddress() {
        let limiter = LoginRateLimiter(clock: FakeClock(), maxFailures: 2, window: 60)
        limiter.fail(client: "a")
        limiter.succeed(client: "a")
        limiter.fail(client: "a")
        #expect(limiter.retryAfter(client: "a") == nil)
        limiter.fail(client: "a")
        #expect(limiter.retryAfter(client: "a") != nil)
    }
}
