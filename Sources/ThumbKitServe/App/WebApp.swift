// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitSite

/// The catalog's web app (`serve --catalog … --out …`): Scary Bugs and Food as pages made from
/// the static site's templates (`ThumbKitSite.HTML`), with plain forms and redirect-after-POST
/// (303), so every page works without JavaScript.
///
/// Routes (see docs/serve.md): `/`, `/bugs`, `/bugs/new`, `/bugs/ID`, `/foods`,
/// `/foods/categories/ID`, `/foods/ID`, `/login`, `/logout`, and `/assets/…` (the style sheet,
/// the script and the built outputs under `--out`). The bug forms are `POST /bugs` (add),
/// `/bugs/ID/rating`, `/bugs/ID/picture`, `/bugs/ID/title` and `/bugs/ID/remove`.
///
/// Reading needs no login. Editing is off unless a password hash is configured; then a `POST`
/// needs a session (else 303 to `/login`) and the session's CSRF token in a `csrf` field (else
/// 403). Changes go through the catalog's transactions, whose triggers queue the record on the
/// build queue; `onChange` then wakes the build lanes, and the page shows the record as being
/// rebuilt (and reloads itself) until its outputs are current.
package final class WebApp: Sendable {
    /// How the app is set up.
    package struct Options: Sendable {
        /// The build's output folder (`--out`): the pictures the pages show.
        package var outputDirectory: String
        /// Where uploaded pictures are kept (named by their content hash), outside `--out`.
        package var uploadDirectory: String
        /// The edit password's hash; nil: editing is off.
        package var password: PasswordHash?
        /// The limits an uploaded picture is checked against (as `catalog set-image`).
        package var limits: ImageLimits
        /// Peers whose `X-Forwarded-Proto` is believed (the session cookie is then `Secure`).
        package var trustedProxies: Set<String>

        package init(
            outputDirectory: String, uploadDirectory: String, password: PasswordHash?,
            limits: ImageLimits = ImageLimits(), trustedProxies: Set<String> = ["127.0.0.1", "::1"]
        ) {
            self.outputDirectory = outputDirectory
            self.uploadDirectory = uploadDirectory
            self.password = password
            self.limits = limits
            self.trustedProxies = trustedProxies
        }
    }

    /// The prefix of the app's static files and images.
    static let assets = "/assets/"

    let store: CatalogStore
    let options: Options
    let sessions: SessionStore
    let limiter: LoginRateLimiter
    let uploads: UploadStore
    /// Where output files are read from (no path leaves it); nil when `--out` does not exist yet.
    private let outputs: SourceRoot?
    /// Called after every change the app commits (wakes the build lanes).
    let onChange: @Sendable () -> Void

    package init(
        store: CatalogStore, options: Options, clock: any WebAppClock = SystemWebAppClock(),
        onChange: @escaping @Sendable () -> Void = {}
    ) {
        self.store = store
        self.options = options
        self.sessions = SessionStore(clock: clock)
        self.limiter = LoginRateLimiter(clock: clock)
        self.uploads = UploadStore(folder: options.uploadDirectory, limits: options.limits)
        self.outputs = try? SourceRoot(options.outputDirectory)
        self.onChange = onChange
    }

    /// Whether `path` is one of the app's.
    package static func handles(_ path: String) -> Bool {
        if path == "/" || path == "/login" || path == "/logout" || path.hasPrefix(assets) { return true }
        for prefix in ["/bugs", "/foods"] where path == prefix || path.hasPrefix(prefix + "/") { return true }
        return false
    }

    /// Whether editing is on (a password hash was given).
    var canEdit: Bool { options.password != nil }

    /// The answer to one request of the app.
    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        let path = request.path
        let language = PageLanguage(acceptLanguage: request.headers["Accept-Language"])
        if path.hasPrefix(Self.assets) {
            let name = String(path.dropFirst(Self.assets.count))
            return await BlockingWork.run { [self] in asset(name) }
        }
        let parts = path.split(separator: "/").map(String.init)
        if request.method == "POST" {
            return await post(parts, request: request, language: language)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var answer = HTTPResponse.text(.methodNotAllowed)
            answer.headers.append(("Allow", "GET, HEAD, POST"))
            return answer
        }
        let session = canEdit ? sessions.session(for: request) : nil
        let context = PageContext(language: language, session: session, canEdit: canEdit)
        let page: Rendered = await BlockingWork.run { [self] in
            do {
                return try get(parts, context: context)
            } catch let error as CatalogError {
                if case .notFound = error { return .status(.notFound) }
                return .status(.serviceUnavailable)
            } catch {
                return .status(.serviceUnavailable)
            }
        }
        return page.response
    }

    /// A page or a bare status.
    enum Rendered: Sendable {
        case html(HTTPStatus, String)
        case status(HTTPStatus)
        case redirect(String)
        /// A JSON answer for the rating script (`WebAppScript`).
        case json(HTTPStatus, [UInt8])

        var response: HTTPResponse {
            switch self {
            case .html(let status, let text): WebApp.html(status, text)
            case .status(let status): .text(status)
            case .redirect(let location): WebApp.redirect(location)
            case .json(let status, let body):
                HTTPResponse(
                    status: status,
                    headers: [
                        ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store"),
                        ("X-Content-Type-Options", "nosniff"),
                    ],
                    body: body)
            }
        }
    }

    /// The `GET` pages (a blocking call: it reads the catalog).
    private func get(_ parts: [String], context: PageContext) throws -> Rendered {
        let pages = WebAppPages(context: context)
        switch parts.count {
        case 0: return .html(.ok, try pages.index(store))
        case 1 where parts[0] == "login":
            return canEdit ? .html(.ok, pages.login(error: nil)) : .status(.notFound)
        case 1 where parts[0] == "bugs": return .html(.ok, try pages.bugList(store))
        case 1 where parts[0] == "foods": return .html(.ok, try pages.foodIndex(store))
        case 2 where parts == ["bugs", "new"]:
            guard context.session != nil else { return canEdit ? .redirect("/login") : .status(.notFound) }
            return .html(.ok, pages.newBug(error: nil, title: "", rating: ""))
        case 2 where parts[0] == "bugs":
            guard let id = Self.id(parts[1]) else { return .status(.notFound) }
            return .html(.ok, try pages.bugDetail(store, id: id, queue: BuildQueue(store: store), error: nil))
        case 2 where parts[0] == "foods":
            guard let id = Self.id(parts[1]) else { return .status(.notFound) }
            return .html(.ok, try pages.foodDetail(store, id: id, queue: BuildQueue(store: store)))
        case 3 where parts[0] == "foods" && parts[1] == "categories":
            guard let id = Self.id(parts[2]) else { return .status(.notFound) }
            return .html(.ok, try pages.category(store, id: id))
        default:
            return .status(.notFound)
        }
    }

    /// `POST`: the login, the logout and the bug forms.
    private func post(_ parts: [String], request: HTTPRequest, language: PageLanguage) async -> HTTPResponse {
        guard canEdit else { return .text(.forbidden, "editing is off (start serve with --edit-password-file)") }
        if parts == ["login"] { return await login(request, language: language) }
        guard let session = sessions.session(for: request) else {
            return request.headers["Accept"]?.contains("text/html") ?? true
                ? Self.redirect("/login") : .text(.unauthorized, "log in first")
        }
        let form: FormFields
        do {
            form = try FormFields.parse(request)
        } catch {
            return .text(.badRequest, error.reason)
        }
        guard let token = form["csrf"],
            SecureRandom.constantTimeEqual(Array(token.utf8), Array(session.csrf.utf8))
        else { return .text(.forbidden, "missing or wrong csrf token") }
        if parts == ["logout"] {
            sessions.end(session.id)
            var answer = Self.redirect("/")
            answer.headers.append(("Set-Cookie", SessionStore.clearCookie(secure: isSecure(request))))
            return answer
        }
        let context = PageContext(language: language, session: session, canEdit: true)
        // The rating script asks for JSON; a plain form (or anything else) gets the redirect.
        let json = request.headers["Accept"]?.contains("application/json") ?? false
        let rendered: Rendered = await BlockingWork.run { [self] in
            BugForms(app: self, context: context, json: json).handle(parts, form: form)
        }
        return rendered.response
    }

    /// `POST /login`: checks the password (rate-limited per client address) and starts a session.
    private func login(_ request: HTTPRequest, language: PageLanguage) async -> HTTPResponse {
        let client = clientAddress(request)
        if let wait = limiter.retryAfter(client: client) {
            var answer = HTTPResponse.text(.tooManyRequests, "too many failed logins; try again in \(wait) s")
            answer.headers.append(("Retry-After", "\(wait)"))
            return answer
        }
        let form: FormFields
        do {
            form = try FormFields.parse(request)
        } catch {
            return .text(.badRequest, error.reason)
        }
        let password = form["password"] ?? ""
        let hash = options.password
        let matches = await BlockingWork.run { hash?.verify(password) ?? false }
        guard matches else {
            limiter.fail(client: client)
            let pages = WebAppPages(context: PageContext(language: language, session: nil, canEdit: true))
            return Self.html(.unauthorized, pages.login(error: "Wrong password."))
        }
        limiter.succeed(client: client)
        guard let session = sessions.start() else { return .text(.serviceUnavailable, "no random bytes") }
        var answer = Self.redirect("/bugs")
        answer.headers.append(("Set-Cookie", SessionStore.setCookie(session, secure: isSecure(request))))
        return answer
    }

    /// Whether the browser reached us through HTTPS: `X-Forwarded-Proto: https` from a trusted
    /// proxy (the server itself speaks only HTTP).
    func isSecure(_ request: HTTPRequest) -> Bool {
        guard options.trustedProxies.contains(request.peer) else { return false }
        return request.headers["X-Forwarded-Proto"]?.split(separator: ",").first?
            .trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    /// The client's address for the login rate limit: the peer, or the first
    /// `X-Forwarded-For` address when the peer is a trusted proxy.
    func clientAddress(_ request: HTTPRequest) -> String {
        if options.trustedProxies.contains(request.peer),
            let forwarded = request.headers["X-Forwarded-For"]?.split(separator: ",").first
        {
            return forwarded.trimmingCharacters(in: .whitespaces)
        }
        return request.peer
    }

    /// `/assets/style.css`, `/assets/site.js`, `/assets/app.js`, `/assets/images/<output path>` (a blocking call:
    /// it reads the file).
    private func asset(_ name: String) -> HTTPResponse {
        switch name {
        case "style.css": return Self.static(HTML.styleSheet + WebAppPages.styleSheet, type: "text/css")
        case SiteText.scriptPath: return Self.static(SiteText.script, type: "text/javascript")
        case WebAppScript.path: return Self.static(WebAppScript.source, type: "text/javascript")
        default: break
        }
        guard name.hasPrefix("images/"), let outputs,
            let relative = String(name.dropFirst("images/".count)).removingPercentEncoding,
            !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") })
        else { return .text(.notFound) }
        do {
            let file = try outputs.open(relative)
            let bytes = try file.read(maxBytes: 64 << 20)
            let ext = (relative as NSString).pathExtension.lowercased()
            let type = ImageFormat.fileExtensions[ext]?.mimeType ?? "application/octet-stream"
            // Output names carry their content's hash: a changed picture gets a new name.
            return HTTPResponse(
                status: .ok,
                headers: [("Content-Type", type), ("Cache-Control", "public, max-age=31536000, immutable")],
                body: bytes)
        } catch {
            return .text(.notFound)
        }
    }

    static func id(_ text: String) -> Int? {
        guard text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(text), id >= 1 else {
            return nil
        }
        return id
    }

    static func html(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
                ("Referrer-Policy", "same-origin"), ("Content-Security-Policy", contentSecurityPolicy),
            ],
            body: Array(text.utf8))
    }

    /// Scripts only from the app's own files (never inline); styles may be inline because the
    /// site's picture placeholders carry a `style` attribute.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(
            status: .seeOther, headers: [("Location", location), ("Cache-Control", "no-store")],
            body: Array("see \(location)\n".utf8))
    }

    private static func `static`(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(
            status: .ok,
            headers: [
                ("Content-Type", type + "; charset=utf-8"), ("Cache-Control", "public, max-age=300"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: Array(text.utf8))
    }
}

/// What a page needs to know of its reader.
struct PageContext: Sendable {
    var language: PageLanguage
    /// The reader's session when logged in (then forms are shown, with its CSRF token).
    var session: SessionStore.Session?
    var canEdit: Bool
}
