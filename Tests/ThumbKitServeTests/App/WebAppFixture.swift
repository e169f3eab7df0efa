// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitServe

/// A web app over a temporary SQLite (or PostgreSQL) catalog with two bugs (the first with a picture), editing
/// on with the password "secret", driven by calling `respond(to:)` directly (no sockets).
final class WebAppFixture {
    static let password = "secret"

    let workspace: TestWorkspace
    let store: CatalogStore
    let app: WebApp
    let clock = FakeClock()
    let changes = Locked(0)
    /// The first bug's id and its picture.
    let bugID: Int
    let picture: ImageRef

    init(editing: Bool = true, backend: CatalogBackend = .sqlite) throws {
        workspace = try TestWorkspace()
        store = try workspace.store(backend: backend)
        let path = try workspace.image("pictures/bug.png", width: 64, height: 48, seed: 3)
        picture = try ImageRef.load(path: path)
        let picture = self.picture
        bugID = try store.write { tx in
            let bug = try tx.addBug(title: "Potato <Bug> & \"friends\"", rating: Rating(exactly: 2)!, image: picture)
            try tx.addBug(title: "Second", rating: Rating(exactly: 4)!)
            return bug.id
        }
        let hash = editing ? PasswordHash.make(password: Self.password, function: .pbkdf2(iterations: 1000)) : nil
        let changes = self.changes
        app = WebApp(
            store: store,
            options: WebApp.Options(
                outputDirectory: workspace.path("out"), uploadDirectory: workspace.path("uploads"), password: hash),
            clock: clock, onChange: { changes.withLock { $0 += 1 } })
    }

    struct Answer {
        var status: Int
        var headers: [(String, String)]
        var text: String

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    func send(
        _ method: String, _ target: String, body: [UInt8] = [], contentType: String? = nil, cookie: String? = nil,
        peer: String = "127.0.0.1", extra: [(String, String)] = []
    ) async -> Answer {
        var headers = HTTPHeaders()
        if let contentType { headers.append("Content-Type", contentType) }
        if let cookie { headers.append("Cookie", cookie) }
        for (name, value) in extra { headers.append(name, value) }
        let response = await app.respond(
            to: HTTPRequest(method: method, target: target, headers: headers, body: body, peer: peer))
        return Answer(
            status: response.status.rawValue, headers: response.headers,
            text: String(decoding: response.body, as: UTF8.self))
    }

    /// Logs in; returns the `Cookie` header value.
    func login() async throws -> String {
        let answer = await send(
            "POST", "/login", body: Array("password=\(Self.password)".utf8),
            contentType: "application/x-www-form-urlencoded")
        #expect(answer.status == 303)
        let setCookie = try #require(answer.header("Set-Cookie"))
        return String(setCookie.split(separator: ";")[0])
    }

    /// The CSRF token of the session, from a page's form.
    func csrf(cookie: String) async throws -> String {
        let page = await send("GET", "/bugs/\(bugID)", cookie: cookie)
        let marker = "name=\"csrf\" value=\""
        let start = try #require(page.text.range(of: marker)).upperBound
        return String(page.text[start...].prefix { $0 != "\"" })
    }

    /// A urlencoded POST with `fields`.
    func post(
        _ target: String, _ fields: [(String, String)], cookie: String?, extra: [(String, String)] = []
    ) async -> Answer {
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        return await send(
            "POST", target, body: Array(body.utf8), contentType: "application/x-www-form-urlencoded", cookie: cookie,
            extra: extra)
    }

    /// A multipart POST with text `fields` and one file.
    func upload(
        _ target: String, _ fields: [(String, String)], file: (name: String, filename: String, bytes: [UInt8])?,
        cookie: String
    ) async -> Answer {
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--B0undary\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let file {
            body += Array(
                "--B0undary\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--B0undary--\r\n".utf8)
        return await send(
            "POST", target, body: body, contentType: "multipart/form-data; boundary=B0undary", cookie: cookie)
    }
}
