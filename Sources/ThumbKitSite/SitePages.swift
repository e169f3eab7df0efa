// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// The pages of the site, as text, from a snapshot of the catalog. Page files are named by row
/// id (`bugs/12.html`), never by title, so no title can name a file.
struct SitePages {
    struct Snapshot {
        var bugs: [Bug]
        var foods: [Food]
        var categories: [FoodCategory]
        var outputs: [RecordRef: [OutputRecord]]
    }

    struct Page {
        /// Relative to the site root.
        let path: String
        let html: String
        /// The images it shows, relative to the site root (`images/…`).
        let images: Set<String>
    }

    let snapshot: Snapshot

    /// Every page.
    func all() -> [Page] {
        var pages = [index(), bugList(), foodIndex()]
        pages += snapshot.bugs.map(bugDetail)
        pages += snapshot.categories.map(categoryPage)
        pages += snapshot.foods.map(foodDetail)
        return pages
    }

    // MARK: Pictures

    /// The picture of `record` of kind `kind`: its first JPEG or PNG recipe of that kind, with
    /// its WebP and AVIF twins as `<source>`s (`SiteImage.init(recipeRows:)`).
    private func picture(_ record: RecordRef, _ kind: OutputKind) -> SiteImage? {
        SiteImage(recipeRows: (snapshot.outputs[record] ?? []).filter { $0.kind == kind })
    }

    /// One line per recipe whose pictures have no JPEG or PNG fallback of the same kind: a
    /// browser without WebP or AVIF shows nothing for them.
    func fallbackWarnings() -> [String] {
        var recipes = Set<String>()
        for (record, rows) in snapshot.outputs {
            for kind in Set(rows.map(\.kind)) {
                if let picture = picture(record, kind), !picture.hasFallback {
                    recipes.formUnion(rows.filter { $0.kind == kind }.map(\.recipe))
                }
            }
        }
        return recipes.sorted().map {
            "recipe \($0): no JPEG or PNG recipe of the same kind, so browsers without WebP/AVIF show no picture; add one"
        }
    }

    /// An app icon to head the front page: the 60 pt one (@2x, @3x) when built.
    private var appIcon: SiteImage? {
        let rows = (snapshot.outputs[.app] ?? []).filter { $0.kind == .icon && $0.recipe.contains("pt=60,") }
        return SiteImage(rows: rows)
    }

    private func page(
        _ path: String, title: String, root: String, trail: [(label: String, href: String?)], body: String,
        pictures: [SiteImage?]
    ) -> Page {
        let images = Set(pictures.compactMap { $0 }.flatMap { $0.allFiles.map(\.path) })
        return Page(path: path, html: HTML.page(title: title, root: root, trail: trail, body: body), images: images)
    }

    private func ratingText(_ rating: Rating) -> String {
        "\(rating) out of 5"
    }

    // MARK: Pages

    private func index() -> Page {
        let icon = appIcon
        let firstBug = snapshot.bugs.first.flatMap { picture($0.ref, .list) }
        let firstFood = snapshot.foods.first.flatMap { picture($0.ref, .list) }
        let heading =
            icon.map {
                "<div class=\"hero\">"
                    + HTML.image($0, alt: "App icon", root: "", className: "app-icon", fallback: (60, 60))
                    + "<span class=\"meta\">The app icon, one of \(AppIcon.files.count) sizes made from the logo.</span></div>"
            } ?? ""
        let body = """
            \(heading)
            <ul class="rows">
            <li><a href="bugs/index.html">\(HTML.image(firstBug, alt: "", root: "", className: "thumb", fallback: (44, 44)))\
            <span class="title">Bugs</span><span class="meta">\(snapshot.bugs.count) bugs</span></a></li>
            <li><a href="foods/index.html">\(HTML.image(firstFood, alt: "", root: "", className: "thumb", fallback: (44, 44)))\
            <span class="title">Foods</span><span class="meta">\(snapshot.foods.count) dishes in \
            \(snapshot.categories.count) categories</span></a></li>
            </ul>
            """
        return page(
            "index.html", title: "Catalog", root: "", trail: [("Catalog", nil)], body: body,
            pictures: [icon, firstBug, firstFood])
    }

    private func bugList() -> Page {
        var pictures: [SiteImage?] = []
        let rows = snapshot.bugs.map { bug -> String in
            let thumb = picture(bug.ref, .list)
            let strip = picture(bug.ref, .rating)
            pictures += [thumb, strip]
            let stars =
                strip.map {
                    HTML.image($0, alt: ratingText(bug.rating), root: "../", className: "stars", fallback: (0, 0))
                } ?? "<span class=\"meta\">\(HTMLText.escape(ratingText(bug.rating)))</span>"
            return "<li><a href=\"\(bug.id).html\">"
                + HTML.image(thumb, alt: "", root: "../", className: "thumb", fallback: (44, 44))
                + "<span class=\"title\">\(HTMLText.escape(bug.title))</span>\(stars)</a></li>"
        }
        let body =
            rows.isEmpty
            ? "<p class=\"note\">No bugs yet.</p>" : "<ul class=\"rows\">\n\(rows.joined(separator: "\n"))\n</ul>"
        return page(
            "bugs/index.html", title: "Bugs", root: "../", trail: [("Catalog", "../index.html"), ("Bugs", nil)],
            body: body, pictures: pictures)
    }

    private func bugDetail(_ bug: Bug) -> Page {
        let detail = picture(bug.ref, .detail)
        let strip = picture(bug.ref, .rating)
        let stars =
            strip.map { HTML.image($0, alt: ratingText(bug.rating), root: "../", className: "stars", fallback: (0, 0)) }
            ?? ""
        let body = """
            \(HTML.image(detail, alt: bug.title, root: "../", className: "detail", fallback: (320, 320)))
            <dl class="facts">
            <dt>Rating</dt><dd>\(stars)<span>\(HTMLText.escape(ratingText(bug.rating)))</span></dd>
            <dt>Updated</dt><dd>\(SiteText.time(bug.updatedAt))</dd>
            </dl>
            <h2>Outputs</h2>
            \(HTML.outputTable(snapshot.outputs[bug.ref] ?? []))
            """
        return page(
            "bugs/\(bug.id).html", title: bug.title, root: "../",
            trail: [("Catalog", "../index.html"), ("Bugs", "index.html"), (bug.title, nil)], body: body,
            pictures: [detail, strip])
    }

    private func foodIndex() -> Page {
        var pictures: [SiteImage?] = []
        let rows = snapshot.categories.map { category -> String in
            let foods = snapshot.foods.filter { $0.categoryID == category.id }
            let thumb = foods.first.flatMap { picture($0.ref, .list) }
            pictures.append(thumb)
            return "<li><a href=\"category-\(category.id).html\">"
                + HTML.image(thumb, alt: "", root: "../", className: "thumb", fallback: (60, 60))
                + "<span class=\"title\">\(HTMLText.escape(category.name))</span>"
                + "<span class=\"meta\">\(foods.count) \(foods.count == 1 ? "dish" : "dishes")</span></a></li>"
        }
        let body =
            rows.isEmpty
            ? "<p class=\"note\">No categories yet.</p>" : "<ul class=\"rows\">\n\(rows.joined(separator: "\n"))\n</ul>"
        return page(
            "foods/index.html", title: "Foods", root: "../", trail: [("Catalog", "../index.html"), ("Foods", nil)],
            body: body, pictures: pictures)
    }

    private func categoryPage(_ category: FoodCategory) -> Page {
        var pictures: [SiteImage?] = []
        let rows = snapshot.foods.filter { $0.categoryID == category.id }.map { food -> String in
            let thumb = picture(food.ref, .list)
            pictures.append(thumb)
            return "<li><a href=\"\(food.id).html\">"
                + HTML.image(thumb, alt: "", root: "../", className: "thumb", fallback: (60, 60))
                + "<span class=\"title\">\(HTMLText.escape(food.name))</span></a></li>"
        }
        let body =
            rows.isEmpty
            ? "<p class=\"note\">No dishes yet.</p>" : "<ul class=\"rows\">\n\(rows.joined(separator: "\n"))\n</ul>"
        return page(
            "foods/category-\(category.id).html", title: category.name, root: "../",
            trail: [("Catalog", "../index.html"), ("Foods", "index.html"), (category.name, nil)], body: body,
            pictures: pictures)
    }

    private func foodDetail(_ food: Food) -> Page {
        let detail = picture(food.ref, .detail)
        let body = """
            \(HTML.image(detail, alt: food.name, root: "../", className: "detail", fallback: (320, 480)))
            <dl class="facts">
            <dt>Category</dt><dd><a href="category-\(food.categoryID).html">\(HTMLText.escape(food.category))</a></dd>
            <dt>Updated</dt><dd>\(SiteText.time(food.updatedAt))</dd>
            </dl>
            <h2>Outputs</h2>
            \(HTML.outputTable(snapshot.outputs[food.ref] ?? []))
            """
        return page(
            "foods/\(food.id).html", title: food.name, root: "../",
            trail: [
                ("Catalog", "../index.html"), ("Foods", "index.html"),
                (food.category, "category-\(food.categoryID).html"),
                (food.name, nil),
            ], body: body, pictures: [detail])
    }
}
