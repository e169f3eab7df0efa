// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitServe

/// The rating script's side of the app: `/assets/app.js` itself, the pages that load it, and the
/// JSON answer of `POST /bugs/ID/rating` to a client that asks for it, under the same session
/// and CSRF rules as the plain form.
struct WebAppRatingScriptTests {
    static let json = [("Accept", "application/json")]

    struct RatingAnswer: Decodable, Equatable {
        var rating: Double
        var text: String
    }

    @Test(arguments: CatalogBackend.all)
    func aRatingAskedForAsJSONIsStoredAndAnsweredWithIt(backend: CatalogBackend) async throws {
        let fixture = try WebAppFixture(backend: backend)
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)

        let answer = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("csrf", csrf), ("rating", "4")], cookie: cookie, extra: Self.json)

        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
        #expect(answer.header("Location") == nil)
        #expect(answer.header("Cache-Control") == "no-store")
        let decoded = try JSONDecoder().decode(RatingAnswer.self, from: Data(answer.text.utf8))
        #expect(decoded == RatingAnswer(rating: 4, text: "4 out of 5"))
        #expect(try fixture.store.read { try $0.requireBug(id: fixture.bugID) }.rating.value == 4)
        #expect(try BuildQueue(store: fixture.store).entries().contains { $0.record == .bug(fixture.bugID) })
        #expect(fixture.changes.withLock { $0 } == 1)
        let page = await fixture.send("GET", "/bugs/\(fixture.bugID)")
        #expect(page.text.contains("data-rating=\"4\""))
    }

    @Test func theJSONAnswerUsesTheReadersDecimalComma() async throws {
        let fixture = try WebAppFixture()
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)
        let answer = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("csrf", csrf), ("rating", "3.5")], cookie: cookie,
            extra: Self.json + [("Accept-Language", "de")])
        #expect(answer.status == 200)
        let decoded = try JSONDecoder().decode(RatingAnswer.self, from: Data(answer.text.utf8))
        #expect(decoded == RatingAnswer(rating: 3.5, text: "3,5 out of 5"))
    }

    @Test func aRatingOffTheHalfStepsIsAJSONRefusalThatChangesNothing() async throws {
        let fixture = try WebAppFixture()
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)
        let answer = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("csrf", csrf), ("rating", "4.2")], cookie: cookie, extra: Self.json)
        #expect(answer.status == 422)
        #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(answer.text.utf8))
        #expect(decoded["error"] == "A rating is 0 to 5 in steps of 0.5.")
        #expect(try fixture.store.read { try $0.requireBug(id: fixture.bugID) }.rating.value == 2)
        #expect(fixture.changes.withLock { $0 } == 0)
    }

    @Test func aJSONRatingWithoutCSRFIsForbiddenAndWithoutASessionUnauthorized() async throws {
        let fixture = try WebAppFixture()
        let cookie = try await fixture.login()
        let missing = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("rating", "4")], cookie: cookie, extra: Self.json)
        #expect(missing.status == 403)
        let csrf = try await fixture.csrf(cookie: cookie)
        let anonymous = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("csrf", csrf), ("rating", "4")], cookie: nil, extra: Self.json)
        #expect(anonymous.status == 401)
        #expect(anonymous.header("Location") == nil)
        #expect(try fixture.store.read { try $0.requireBug(id: fixture.bugID) }.rating.value == 2)
        #expect(fixture.changes.withLock { $0 } == 0)
    }

    @Test func aPlainFormStillGetsTheRedirect() async throws {
        let fixture = try WebAppFixture()
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)
        // What a browser without the script sends.
        let answer = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("csrf", csrf), ("rating", "4")], cookie: cookie,
            extra: [("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")])
        #expect(answer.status == 303 && answer.header("Location") == "/bugs/\(fixture.bugID)")
    }

    @Test func theScriptIsServedAsJavaScriptWithCacheHeaders() async throws {
        let fixture = try WebAppFixture()
        let script = await fixture.send("GET", "/assets/app.js")
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(script.header("Cache-Control") == "public, max-age=300")
        #expect(script.header("X-Content-Type-Options") == "nosniff")
        #expect(script.text == WebAppScript.source)
        #expect(script.text.contains("form.stars") && script.text.contains("application/json"))
    }

    @Test func onlyAReaderWhoCanEditLoadsTheScriptAndPagesForbidInlineScript() async throws {
        let fixture = try WebAppFixture()
        let tag = "<script src=\"/assets/app.js\" defer=\"defer\"></script>"
        let anonymous = await fixture.send("GET", "/bugs/\(fixture.bugID)")
        #expect(!anonymous.text.contains(tag))
        let cookie = try await fixture.login()
        let page = await fixture.send("GET", "/bugs/\(fixture.bugID)", cookie: cookie)
        #expect(page.text.contains(tag))
        #expect(
            page.text.contains("<form class=\"edit stars\" method=\"post\" action=\"/bugs/\(fixture.bugID)/rating\">"))
        for answer in [anonymous, page] {
            let policy = try #require(answer.header("Content-Security-Policy"))
            let directives = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(directives.contains("script-src 'self'"))
            #expect(directives.contains("default-src 'self'"))
        }
        // No inline script anywhere: every <script> names a file.
        let scripts = page.text.components(separatedBy: "<script").dropFirst()
        #expect(scripts.count == 2)
        #expect(
            scripts.allSatisfy {
                $0.hasPrefix(" src=\"/assets/")
                    && $0.components(separatedBy: "</script>")[0].hasSuffix("defer=\"defer\">")
            })
    }
}
