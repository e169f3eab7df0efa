// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// The bug forms, once the session and CSRF token were checked (`WebApp`): each changes the
/// catalog in one of its transactions (whose triggers queue the record for building), wakes the
/// build lanes, and answers 303 to the page to show; a refused change answers the page again
/// with the reason in `class="error"` (422) and changes nothing. A blocking call.
///
/// With `json` (the client sent `Accept: application/json`, as the rating script does) a rating
/// is answered 200 `{"rating":4,"text":"4 out of 5"}` once stored, or 422 `{"error":"…"}`.
struct BugForms {
    let app: WebApp
    let context: PageContext
    var json = false

    func handle(_ parts: [String], form: FormFields) -> WebApp.Rendered {
        do {
            if parts == ["bugs"] { return try add(form) }
            guard parts.count == 3, parts[0] == "bugs", let id = WebApp.id(parts[1]) else { return .status(.notFound) }
            guard try app.store.read({ try $0.bug(id: id) }) != nil else { return .status(.notFound) }
            switch parts[2] {
            case "rating": return try rate(id, form)
            case "picture": return try setPicture(id, form)
            case "title": return try retitle(id, form)
            case "remove": return try remove(id)
            default: return .status(.notFound)
            }
        } catch {
            return .status(.serviceUnavailable)
        }
    }

    private var pages: WebAppPages { WebAppPages(context: context) }

    /// The bug's page again with `message` (422).
    private func refused(_ id: Int, _ message: String) throws -> WebApp.Rendered {
        .html(
            .unprocessableContent,
            try pages.bugDetail(app.store, id: id, queue: BuildQueue(store: app.store), error: message))
    }

    /// `3.5`, or `3,5` as a reader with a decimal comma may type it.
    static func rating(_ text: String?) -> Rating? {
        guard let text, let value = Double(text.replacingOccurrences(of: ",", with: ".")) else { return nil }
        return Rating(exactly: value)
    }

    private func rate(_ id: Int, _ form: FormFields) throws -> WebApp.Rendered {
        guard let rating = Self.rating(form["rating"]) else {
            let message = "A rating is 0 to 5 in steps of 0.5."
            if json { return .json(.unprocessableContent, Self.encoded(["error": message])) }
            return try refused(id, message)
        }
        try app.store.write { try $0.rate(bugID: id, rating: rating.value) }
        app.onChange()
        if json { return .json(.ok, Self.encoded(RatingAnswer(rating: rating.value, text: pages.ratingText(rating)))) }
        return .redirect("/bugs/\(id)")
    }

    /// The JSON answer to a rating.
    struct RatingAnswer: Encodable {
        let rating: Double
        let text: String
    }

    static func encoded(_ value: some Encodable) -> [UInt8] {
        JSONLine.bytes(value) ?? Array("{}".utf8)
    }

    private func setPicture(_ id: Int, _ form: FormFields) throws -> WebApp.Rendered {
        guard let file = form.files["picture"] else { return try refused(id, "Choose a picture to upload.") }
        let image: ImageRef
        do {
            image = try app.uploads.store(file.bytes, filename: file.filename)
        } catch {
            return try refused(id, error.message)
        }
        try app.store.write { try $0.setImage(bugID: id, image: image) }
        app.onChange()
        return .redirect("/bugs/\(id)")
    }

    private func retitle(_ id: Int, _ form: FormFields) throws -> WebApp.Rendered {
        let title = form["title"] ?? ""
        do {
            try app.store.write { try $0.retitle(bugID: id, title: title) }
        } catch let error as CatalogError {
            guard case .invalidRecord(_, let reason) = error else { throw error }
            return try refused(id, "The title was not changed: \(reason).")
        }
        app.onChange()
        return .redirect("/bugs/\(id)")
    }

    private func remove(_ id: Int) throws -> WebApp.Rendered {
        _ = try RecordRemoval.remove(.bug(id), store: app.store, outputDirectory: app.options.outputDirectory)
        app.onChange()
        return .redirect("/bugs")
    }

    /// `POST /bugs`: a new bug with a title, a rating and (optionally) a picture.
    private func add(_ form: FormFields) throws -> WebApp.Rendered {
        let title = form["title"] ?? ""
        let ratingText = form["rating"] ?? "0"
        func again(_ message: String) -> WebApp.Rendered {
            .html(.unprocessableContent, pages.newBug(error: message, title: title, rating: ratingText))
        }
        guard let rating = Self.rating(ratingText) else { return again("A rating is 0 to 5 in steps of 0.5.") }
        var image: ImageRef?
        if let file = form.files["picture"] {
            do {
                image = try app.uploads.store(file.bytes, filename: file.filename)
            } catch {
                return again(error.message)
            }
        }
        let bug: Bug
        do {
            bug = try app.store.write { try $0.addBug(title: title, rating: rating, image: image) }
        } catch let error as CatalogError {
            guard case .invalidRecord(_, let reason) = error else { throw error }
            return again("The bug was not added: \(reason).")
        }
        app.onChange()
        return .redirect("/bugs/\(bug.id)")
    }
}
