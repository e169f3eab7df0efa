// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitServe

/// The web app's routes over a temporary SQLite catalog (and PostgreSQL when configured), called directly.
struct WebAppTests {
    @Test func pagesNeedNoLoginAndEscapeRecordText() async throws {
        let fixture = try WebAppFixture()
        let list = await fixture.send("GET", "/bugs")
        #expect(list.status == 200 && list.header("Content-Type") == "text/html; charset=utf-8")
        #expect(list.text.contains("Potato &lt;Bug&gt; &amp; &quot;friends&quot;"))
        #expect(!list.text.contains("<Bug>"))
        #expect(list.text.contains("href=\"/bugs/\(fixture.bugID)\""))
        let detail = await fixture.send("GET", "/bugs/\(fixture.bugID)")
        #expect(detail.status == 200 && detail.text.contains("data-rating=\"2\""))
        #expect(detail.text.contains("lowest 2, highest 4, average 3 of 2 bugs: below the average"))
        #expect(!detail.text.contains("name=\"csrf\""))  // no forms without a session
        #expect(await fixture.send("GET", "/bugs/999").status == 404)
        #expect(await fixture.send("GET", "/bugs/x").status == 404)
        #expect(await fixture.send("GET", "/foods").status == 200)
        #expect(await fixture.send("GET", "/assets/style.css").status == 200)
    }

    @Test func theLanguageOfTheBrowserSetsLangAndTheDecimalComma() async throws {
        let fixture = try WebAppFixture()
        try fixture.store.write { try $0.rate(bugID: fixture.bugID, rating: 3.5) }
        let page = await fixture.send("GET", "/bugs/\(fixture.bugID)", extra: [("Accept-Language", "de-DE,de;q=0.9")])
        #expect(page.text.contains("<html lang=\"de\">"))
        #expect(page.text.contains("3,5 out of 5") && page.text.contains("data-rating=\"3.5\""))
        #expect(page.text.contains("average 3,75"))
    }

    @Test func aPostWithoutASessionIsSentToTheLoginAndChangesNothing() async throws {
        let fixture = try WebAppFixture()
        let answer = await fixture.post("/bugs/\(fixture.bugID)/rating", [("rating", "5")], cookie: nil)
        #expect(answer.status == 303 && answer.header("Location") == "/login")
        let forged = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("rating", "5")], cookie: "thumbkit_session=made-up")
        #expect(forged.status == 303)
        #expect(try fixture.store.read { try $0.requireBug(id: fixture.bugID) }.rating.value == 2)
    }

    @Test func aMissingOrWrongCSRFTokenIsForbidden() async throws {
        let fixture = try WebAppFixture()
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)
        #expect(csrf.count == 43)
        let missing = await fixture.post("/bugs/\(fixture.bugID)/rating", [("rating", "5")], cookie: cookie)
        #expect(missing.status == 403)
        let wrong = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("rating", "5"), ("csrf", String(csrf.reversed()))], cookie: cookie)
        #expect(wrong.status == 403)
        #expect(try fixture.store.read { try $0.requireBug(id: fixture.bugID) }.rating.value == 2)
        #expect(fixture.changes.withLock { $0 } == 0)
    }

    @Test(arguments: CatalogBackend.all)
    func ratingInHalfStepsIsStoredShownAndQueued(backend: CatalogBackend) async throws {
        let fixture = try WebAppFixture(backend: backend)
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)
        let page = await fixture.send("GET", "/bugs/\(fixture.bugID)", cookie: cookie)
        for value in ["0.5", "1", "4", "4.5", "5"] {
            #expect(page.text.contains("name=\"rating\" value=\"\(value)\""))
        }
        let answer = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("rating", "3.5"), ("csrf", csrf)], cookie: cookie)
        #expect(answer.status == 303 && answer.header("Location") == "/bugs/\(fixture.bugID)")
        let after = await fixture.send("GET", "/bugs/\(fixture.bugID)")
        #expect(after.text.contains("data-rating=\"3.5\""))
        #expect(after.text.contains("Being rebuilt") && after.text.contains("http-equiv=\"refresh\""))
        #expect(try BuildQueue(store: fixture.store).entries().contains { $0.record == .bug(fixture.bugID) })
        #expect(fixture.changes.withLock { $0 } == 1)
        let bad = await fixture.post(
            "/bugs/\(fixture.bugID)/rating", [("rating", "7"), ("csrf", csrf)], cookie: cookie)
        #expect(bad.status == 422 && bad.text.contains("class=\"error\""))
    }

    @Test func aTextFileUploadShowsAnErrorAndKeepsTheOldPicture() async throws {
        let fixture = try WebAppFixture()
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)
        let answer = await fixture.upload(
            "/bugs/\(fixture.bugID)/picture", [("csrf", csrf)],
            file: ("picture", "notes.png", Array("just some text\n".utf8)), cookie: cookie)
        #expect(answer.status == 422)
        #expect(answer.text.contains("class=\"error\"") && answer.text.contains("notes.png"))
        #expect(try fixture.store.read { try $0.requireBug(id: fixture.bugID) }.image == fixture.picture)
        #expect(!FileManager.default.fileExists(atPath: fixture.workspace.path("uploads")))
    }

    @Test func aPictureUploadReplacesThePictureWithAStoredCopy() async throws {
        let fixture = try WebAppFixture()
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)
        let bytes = try ImageEncoders.encode(PixelBuffer(width: 30, height: 20), options: EncodeOptions(format: .jpeg))
        let answer = await fixture.upload(
            "/bugs/\(fixture.bugID)/picture", [("csrf", csrf)], file: ("picture", "new.jpg", bytes), cookie: cookie)
        #expect(answer.status == 303)
        let image = try #require(try fixture.store.read { try $0.requireBug(id: fixture.bugID) }.image)
        #expect(image.sha256 == ContentHash.sha256(of: bytes))
        #expect(image.path == fixture.workspace.path("uploads/\(image.sha256).jpg"))
        #expect(FileManager.default.contents(atPath: image.path) == Data(bytes))
    }

    @Test(arguments: CatalogBackend.all)
    func aBugIsAddedRenamedAndRemoved(backend: CatalogBackend) async throws {
        let fixture = try WebAppFixture(backend: backend)
        let cookie = try await fixture.login()
        let csrf = try await fixture.csrf(cookie: cookie)
        #expect(await fixture.send("GET", "/bugs/new", cookie: cookie).text.contains("name=\"title\""))
        let png = try ImageEncoders.encode(PixelBuffer(width: 8, height: 8), options: EncodeOptions(format: .png))
        let added = await fixture.upload(
            "/bugs", [("csrf", csrf), ("title", "Hornet"), ("rating", "4.5")], file: ("picture", "h.png", png),
            cookie: cookie)
        #expect(added.status == 303)
        let bug = try #require(try fixture.store.read { try $0.bug(title: "Hornet") })
        #expect(bug.rating.value == 4.5 && bug.image != nil)
        #expect(added.header("Location") == "/bugs/\(bug.id)")
        let taken = await fixture.upload(
            "/bugs", [("csrf", csrf), ("title", "Hornet"), ("rating", "1")], file: nil, cookie: cookie)
        #expect(taken.status == 422 && taken.text.contains("class=\"error\""))

        let renamed = await fixture.post("/bugs/\(bug.id)/title", [("title", "Wasp"), ("csrf", csrf)], cookie: cookie)
        #expect(renamed.status == 303)
        #expect(try fixture.store.read { try $0.requireBug(id: bug.id) }.title == "Wasp")

        let removed = await fixture.post("/bugs/\(bug.id)/remove", [("csrf", csrf)], cookie: cookie)
        #expect(removed.status == 303 && removed.header("Location") == "/bugs")
        #expect(try fixture.store.read { try $0.bug(id: bug.id) } == nil)
        #expect(await fixture.send("GET", "/bugs/\(bug.id)").status == 404)
    }

    @Test func wrongPasswordsAreRateLimitedPerAddress() async throws {
        let fixture = try WebAppFixture()
        for _ in 0..<5 {
            let answer = await fixture.post("/login", [("password", "nope")], cookie: nil)
            #expect(answer.status == 401 && answer.text.contains("class=\"error\""))
        }
        let limited = await fixture.post("/login", [("password", WebAppFixture.password)], cookie: nil)
        #expect(limited.status == 429 && limited.header("Retry-After") == "60")
        fixture.clock.advance(61)
        #expect(await fixture.post("/login", [("password", WebAppFixture.password)], cookie: nil).status == 303)
    }

    @Test func theCookieIsSecureOnlyWhenATrustedProxySaysHTTPS() async throws {
        let fixture = try WebAppFixture()
        let body = Array("password=\(WebAppFixture.password)".utf8)
        let type = "application/x-www-form-urlencoded"
        let proxied = await fixture.send(
            "POST", "/login", body: body, contentType: type, extra: [("X-Forwarded-Proto", "https")])
        #expect(proxied.header("Set-Cookie")?.hasSuffix("; HttpOnly; SameSite=Strict; Secure") == true)
        let untrusted = await fixture.send(
            "POST", "/login", body: body, contentType: type, peer: "192.0.2.7", extra: [("X-Forwarded-Proto", "https")])
        #expect(untrusted.header("Set-Cookie")?.contains("Secure") == false)
    }

    @Test func withoutAPasswordEditingIsOff() async throws {
        let fixture = try WebAppFixture(editing: false)
        #expect(await fixture.send("GET", "/login").status == 404)
        #expect(await fixture.post("/login", [("password", "x")], cookie: nil).status == 403)
        #expect(await fixture.post("/bugs/\(fixture.bugID)/remove", [], cookie: nil).status == 403)
    }

    @Test func malformedFormsAreBadRequests() async throws {
        let fixture = try WebAppFixture()
        let cookie = try await fixture.login()
        let answer = await fixture.send(
            "POST", "/bugs/\(fixture.bugID)/picture", body: Array("--B\r\nnope".utf8),
            contentType: "multipart/form-data; boundary=B", cookie: cookie)
        #expect(answer.status == 400)
    }
}
