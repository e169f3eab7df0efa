// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitSite

/// A bug's page (its picture, title and rating against the catalog's lowest, highest and
/// average rating) with its forms, and the form that adds a bug.
extension WebAppPages {
    func bugDetail(_ store: CatalogStore, id: Int, queue: BuildQueue, error: String?) throws -> String {
        let (bug, rows, summary) = try store.read { tx in
            (try tx.requireBug(id: id), try tx.outputs(for: .bug(id)), try tx.summary())
        }
        let rebuilding = try Self.isQueued(bug.ref, queue: queue)
        let number = context.language
        let strip = Self.picture(rows, .rating)
        let stars =
            strip.map {
                HTML.image($0, alt: ratingText(bug.rating), root: Self.root, className: "stars", fallback: (0, 0))
            }
            ?? ""
        var comparison = ""
        if let ratings = summary.ratings {
            let versus =
                bug.rating.value > ratings.average
                ? "above the average" : bug.rating.value < ratings.average ? "below the average" : "at the average"
            comparison = """
                <dt>Compared</dt><dd><span class="comparison">lowest \(number.number(ratings.min)), \
                highest \(number.number(ratings.max)), average \(number.number(ratings.average)) \
                of \(ratings.count) bugs: \(versus)</span></dd>
                """
        }
        var forms = ""
        if let session = context.session {
            let csrf = csrfField(session)
            let buttons = Rating.all.dropFirst().map { rating in
                let on = rating <= bug.rating ? " on" : ""
                return "<button type=\"submit\" name=\"rating\" value=\"\(rating)\" class=\"star\(on)\" "
                    + "title=\"\(HTMLText.escape(ratingText(rating)))\">\(number.number(rating.value))</button>"
            }.joined()
            forms = """
                <h2>Edit</h2>
                <form class="edit stars" method="post" action="/bugs/\(bug.id)/rating">\(csrf)\(buttons)</form>
                <form class="edit" method="post" action="/bugs/\(bug.id)/picture" enctype="multipart/form-data">\(csrf)\
                <label>New picture <input type="file" name="picture" accept="image/*" required="required" /></label>\
                <button type="submit">Upload</button></form>
                <form class="edit" method="post" action="/bugs/\(bug.id)/title">\(csrf)\
                <label>Title <input type="text" name="title" value="\(HTMLText.escape(bug.title))" required="required" /></label>\
                <button type="submit">Rename</button></form>
                <form class="edit" method="post" action="/bugs/\(bug.id)/remove">\(csrf)\
                <button type="submit" class="danger">Remove this bug</button></form>
                """
        }
        let body = """
            \(Self.error(error))
            \(rebuilding ? Self.rebuildingNote : "")
            \(HTML.image(Self.picture(rows, .detail), alt: bug.title, root: Self.root, className: "detail", fallback: (320, 320)))
            <dl class="facts">
            <dt>Rating</dt><dd>\(stars)<span class="rating" data-rating="\(bug.rating)">\(HTMLText.escape(ratingText(bug.rating)))</span></dd>
            \(comparison)
            <dt>Updated</dt><dd>\(SiteText.time(bug.updatedAt))</dd>
            </dl>
            \(forms)
            """
        return page(
            title: bug.title, trail: [("Catalog", "/"), ("Scary Bugs", "/bugs"), (bug.title, nil)], body: body,
            reload: rebuilding && error == nil)
    }

    /// The form that adds a bug, with what was typed and why it was refused.
    func newBug(error: String?, title: String, rating: String) -> String {
        guard let session = context.session else { return login(error: nil) }
        let options = Rating.all.map { value in
            let selected = "\(value)" == rating ? " selected=\"selected\"" : ""
            return "<option value=\"\(value)\"\(selected)>\(context.language.number(value.value))</option>"
        }.joined()
        let body = """
            \(Self.error(error))
            <form class="edit" method="post" action="/bugs" enctype="multipart/form-data">\(csrfField(session))
            <label>Title <input type="text" name="title" value="\(HTMLText.escape(title))" required="required" /></label>
            <label>Rating <select name="rating">\(options)</select></label>
            <label>Picture <input type="file" name="picture" accept="image/*" /></label>
            <button type="submit">Add</button>
            </form>
            """
        return page(title: "New bug", trail: [("Catalog", "/"), ("Scary Bugs", "/bugs"), ("New bug", nil)], body: body)
    }
}
