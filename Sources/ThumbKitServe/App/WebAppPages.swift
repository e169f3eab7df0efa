// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitSite

/// The web app's pages, made with the static site's `HTML.page` and `HTML.image` (so the two
/// look alike and share one style sheet), with absolute links, images from `/assets/images/…`
/// (the built outputs, whose names change with their content) and, for a reader who is logged
/// in, the forms. Every record text goes through `HTMLText.escape`.
struct WebAppPages {
    let context: PageContext

    /// The root of the assets, as `HTML` wants it (`<root>style.css`, `<root>images/…`).
    static let root = WebApp.assets

    /// The app's additions to the site's style sheet.
    static let styleSheet = """
        .toolbar { max-width: 760px; margin: 0 auto; padding: 8px 20px 0; display: flex; gap: 12px;
                   justify-content: flex-end; font-size: 14px; }
        .toolbar form { margin: 0; }
        .error { background: #fde8e8; color: #8a1c1c; border: 1px solid #f3b4b4; border-radius: 8px; padding: 8px 12px; }
        .rebuilding { background: #fff6dd; border: 1px solid #f0dc9c; border-radius: 8px; padding: 8px 12px; }
        form.edit { margin: 12px 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
        form.stars button { font-size: 14px; min-width: 2.4em; padding: 4px; border: 1px solid var(--line);
                            background: #fff; border-radius: 6px; cursor: pointer; }
        form.stars button.on { background: #fbe3a0; }
        .danger { color: #8a1c1c; }

        """

    /// A whole page: the site's page with the reader's language, a login or logout link, the
    /// app's script for a reader who can edit (`WebAppScript`), and (while `reload`) a refresh
    /// every 2 s.
    func page(title: String, trail: [(label: String, href: String?)], body: String, reload: Bool = false) -> String {
        var toolbar = ""
        if let session = context.session {
            toolbar =
                "<div class=\"toolbar\"><form method=\"post\" action=\"/logout\">\(csrfField(session))"
                + "<button type=\"submit\">Log out</button></form></div>"
        } else if context.canEdit {
            toolbar = "<div class=\"toolbar\"><a href=\"/login\">Log in to edit</a></div>"
        }
        var head = reload ? "<meta http-equiv=\"refresh\" content=\"2\" />\n" : ""
        if context.session != nil {
            head += "<script src=\"\(Self.root)\(WebAppScript.path)\" defer=\"defer\"></script>\n"
        }
        return HTML.page(
            title: title, root: Self.root, trail: trail, body: body, lang: context.language.code, head: head
        ).replacingOccurrences(of: "<body>\n", with: "<body>\n" + toolbar)
    }

    /// The hidden CSRF field every form carries.
    func csrfField(_ session: SessionStore.Session) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(HTMLText.escape(session.csrf))\" />"
    }

    /// An error line (`class="error"`), or "".
    static func error(_ message: String?) -> String {
        message.map { "<p class=\"error\" role=\"alert\">\(HTMLText.escape($0))</p>" } ?? ""
    }

    /// The picture of `record` of `kind` from its rows (the site's choice of recipe).
    static func picture(_ rows: [OutputRecord], _ kind: OutputKind) -> SiteImage? {
        SiteImage(recipeRows: rows.filter { $0.kind == kind })
    }

    /// A rating as text in the reader's language: `3,5 out of 5`.
    func ratingText(_ rating: Rating) -> String {
        "\(context.language.number(rating.value)) out of 5"
    }

    // MARK: Pages

    func index(_ store: CatalogStore) throws -> String {
        let (bugs, foods, categories) = try store.read { tx in (try tx.bugs(), try tx.foods(), try tx.categories()) }
        let body = """
            <ul class="rows">
            <li><a href="/bugs"><span class="title">Scary Bugs</span><span class="meta">\(bugs.count) bugs</span></a></li>
            <li><a href="/foods"><span class="title">Food</span><span class="meta">\(foods.count) dishes in \
            \(categories.count) categories</span></a></li>
            </ul>
            """
        return page(title: "Catalog", trail: [("Catalog", nil)], body: body)
    }

    func bugList(_ store: CatalogStore) throws -> String {
        let (bugs, outputs) = try store.read { tx in
            (try tx.bugs(), Dictionary(grouping: try tx.outputs(), by: \.record))
        }
        let rows = bugs.map { bug -> String in
            let rows = outputs[bug.ref] ?? []
            let strip = Self.picture(rows, .rating)
            let stars =
                strip.map {
                    HTML.image($0, alt: ratingText(bug.rating), root: Self.root, className: "stars", fallback: (0, 0))
                } ?? "<span class=\"meta\">\(HTMLText.escape(ratingText(bug.rating)))</span>"
            return "<li><a href=\"/bugs/\(bug.id)\">"
                + HTML.image(
                    Self.picture(rows, .list), alt: "", root: Self.root, className: "thumb", fallback: (44, 44))
                + "<span class=\"title\">\(HTMLText.escape(bug.title))</span>\(stars)</a></li>"
        }
        var body =
            rows.isEmpty
            ? "<p class=\"note\">No bugs yet.</p>" : "<ul class=\"rows\">\n\(rows.joined(separator: "\n"))\n</ul>"
        if context.session != nil { body += "\n<p><a href=\"/bugs/new\">Add a bug</a></p>" }
        return page(title: "Scary Bugs", trail: [("Catalog", "/"), ("Scary Bugs", nil)], body: body)
    }

    func foodIndex(_ store: CatalogStore) throws -> String {
        let (foods, categories, outputs) = try store.read { tx in
            (try tx.foods(), try tx.categories(), Dictionary(grouping: try tx.outputs(), by: \.record))
        }
        let rows = categories.map { category -> String in
            let dishes = foods.filter { $0.categoryID == category.id }
            let thumb = dishes.first.flatMap { Self.picture(outputs[$0.ref] ?? [], .list) }
            return "<li><a href=\"/foods/categories/\(category.id)\">"
                + HTML.image(thumb, alt: "", root: Self.root, className: "thumb", fallback: (60, 60))
                + "<span class=\"title\">\(HTMLText.escape(category.name))</span>"
                + "<span class=\"meta\">\(dishes.count) \(dishes.count == 1 ? "dish" : "dishes")</span></a></li>"
        }
        let body =
            rows.isEmpty
            ? "<p class=\"note\">No categories yet.</p>" : "<ul class=\"rows\">\n\(rows.joined(separator: "\n"))\n</ul>"
        return page(title: "Food", trail: [("Catalog", "/"), ("Food", nil)], body: body)
    }

    func category(_ store: CatalogStore, id: Int) throws -> String {
        let (category, foods, outputs) = try store.read { tx in
            (
                try tx.categories().first { $0.id == id }, try tx.foods().filter { $0.categoryID == id },
                Dictionary(grouping: try tx.outputs(), by: \.record)
            )
        }
        guard let category else { throw CatalogError.notFound(path: "category \(id)", reason: "no such category") }
        let rows = foods.map { food -> String in
            "<li><a href=\"/foods/\(food.id)\">"
                + HTML.image(
                    Self.picture(outputs[food.ref] ?? [], .list), alt: "", root: Self.root, className: "thumb",
                    fallback: (60, 60))
                + "<span class=\"title\">\(HTMLText.escape(food.name))</span></a></li>"
        }
        let body =
            rows.isEmpty
            ? "<p class=\"note\">No dishes yet.</p>" : "<ul class=\"rows\">\n\(rows.joined(separator: "\n"))\n</ul>"
        return page(
            title: category.name, trail: [("Catalog", "/"), ("Food", "/foods"), (category.name, nil)], body: body)
    }

    func foodDetail(_ store: CatalogStore, id: Int, queue: BuildQueue) throws -> String {
        let (food, rows) = try store.read { tx in (try tx.requireFood(id: id), try tx.outputs(for: .food(id))) }
        let rebuilding = try Self.isQueued(food.ref, queue: queue)
        let body = """
            \(rebuilding ? Self.rebuildingNote : "")
            \(HTML.image(Self.picture(rows, .detail), alt: food.name, root: Self.root, className: "detail", fallback: (320, 480)))
            <dl class="facts">
            <dt>Category</dt><dd><a href="/foods/categories/\(food.categoryID)">\(HTMLText.escape(food.category))</a></dd>
            <dt>Updated</dt><dd>\(SiteText.time(food.updatedAt))</dd>
            </dl>
            """
        return page(
            title: food.name,
            trail: [
                ("Catalog", "/"), ("Food", "/foods"), (food.category, "/foods/categories/\(food.categoryID)"),
                (food.name, nil),
            ], body: body, reload: rebuilding)
    }

    func login(error: String?) -> String {
        let body = """
            \(Self.error(error))
            <form class="edit" method="post" action="/login">
            <label>Password <input type="password" name="password" autocomplete="current-password" required="required" /></label>
            <button type="submit">Log in</button>
            </form>
            """
        return page(title: "Log in", trail: [("Catalog", "/"), ("Log in", nil)], body: body)
    }

    /// The note shown while a record waits on the build queue or is being built.
    static let rebuildingNote =
        "<p class=\"rebuilding note\">Being rebuilt: the new pictures show when they are ready (this page reloads).</p>"

    /// Whether `record` is on the build queue (and not given up on).
    static func isQueued(_ record: RecordRef, queue: BuildQueue) throws -> Bool {
        try queue.entries().contains { $0.record == record && $0.attempts < queue.maxAttempts }
    }
}
