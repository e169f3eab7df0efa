// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// An import file checked against the disk (images found and hashed, ratings validated), before
/// anything touches the database. Checks that need the database (a food's category) happen in
/// `CatalogImporter.apply`.
struct ImportPlan {
    struct Bug {
        let position: String
        let id: Int?
        let title: String
        /// nil: the file gave no rating (0 for a new bug, unchanged for an existing one).
        let rating: Rating?
        let image: ImageRef?
    }

    struct Food {
        let position: String
        let id: Int?
        let category: String
        let name: String
        let image: ImageRef
    }

    var categories: [String] = []
    var bugs: [Bug] = []
    var foods: [Food] = []
    /// Only the settings the file gives.
    var assets = CatalogAssets()
    var problems: [CatalogError] = []

    /// Checks `document` (read from a file in `base`) against the disk. `storedImagesDir` is
    /// the catalog's images folder, used when the file names none.
    init(document: ImportDocument, base: String, storedImagesDir: String?) {
        func problem(_ position: String, _ reason: String) {
            problems.append(.invalidRecord(path: position, reason: reason))
        }
        // Each picture is read, checked and hashed once per import, however many records use
        // it (a large file often shares a few pictures): by resolved path, the outcome of the
        // first look, success or failure, stands for the whole import.
        var looked = ImageLookups()
        func image(_ given: String) -> Result<ImageRef, CatalogError> { looked.image(given, base: base) }
        // Settings first: food images are looked up in imagesDir.
        var imagesDir = storedImagesDir
        var imagesDirLabel = storedImagesDir ?? ""
        if let dir = document.imagesDir {
            let resolved = PathResolution.resolve(dir, against: base)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue {
                imagesDir = resolved
                imagesDirLabel = dir
                assets.imagesDir = resolved
            } else {
                problem("imagesDir", "'\(dir)' is not a folder")
                imagesDir = nil
                imagesDirLabel = dir
            }
        }
        let iconFields: [(String, String?, WritableKeyPath<CatalogAssets, String?>)] = [
            ("ratingIcons.empty", document.ratingIcons?.empty, \.ratingEmpty),
            ("ratingIcons.half", document.ratingIcons?.half, \.ratingHalf),
            ("ratingIcons.full", document.ratingIcons?.full, \.ratingFull), ("logo", document.logo, \.logo),
        ]
        for (position, given, field) in iconFields {
            guard let given else { continue }
            switch image(given) {
            case .success(let ref): assets[keyPath: field] = ref.path
            case .failure(let error): problem(position, error.reason)
            }
        }

        var categoryNames = Set<String>()
        for (index, entry) in (document.categories ?? []).enumerated() {
            let position = "categories[\(index)]"
            switch entry.result {
            case .failure(let failure): problem(position, failure.reason)
            case .success(let name) where name.allSatisfy(\.isWhitespace): problem(position, "name is empty")
            case .success(let name) where !categoryNames.insert(name).inserted:
                problem(position, "'\(name)' is listed twice")
            case .success(let name): categories.append(name)
            }
        }

        var titles: [String: String] = [:]
        for (index, entry) in (document.bugs ?? []).enumerated() {
            let position = "bugs[\(index)]"
            let bug: ImportDocument.Bug
            switch entry.result {
            case .failure(let failure):
                problem(position, failure.reason)
                continue
            case .success(let decoded): bug = decoded
            }
            if bug.title.allSatisfy(\.isWhitespace) {
                problem(position, "title is empty")
                continue
            }
            if let first = titles[bug.title] {
                problem(position, "title '\(bug.title)' is also used by \(first)")
                continue
            }
            if let id = bug.id, !CatalogDocument.validIDs.contains(id) {
                problem(position, CatalogDocument.idRejection(id))
                continue
            }
            titles[bug.title] = position
            var rating: Rating?
            if let value = bug.rating {
                guard let valid = Rating(exactly: value) else {
                    problem(position, Rating.rejection(of: value))
                    continue
                }
                rating = valid
            }
            var image: ImageRef?
            if let given = bug.image {
                switch looked.image(given, base: base) {
                case .success(let ref): image = ref
                case .failure(let error):
                    problem(position, error.reason)
                    continue
                }
            }
            bugs.append(Bug(position: position, id: bug.id, title: bug.title, rating: rating, image: image))
        }

        var foodKeys: [String: String] = [:]
        for (index, entry) in (document.foods ?? []).enumerated() {
            let position = "foods[\(index)]"
            let food: ImportDocument.Food
            switch entry.result {
            case .failure(let failure):
                problem(position, failure.reason)
                continue
            case .success(let decoded): food = decoded
            }
            if food.name.allSatisfy(\.isWhitespace) {
                problem(position, "name is empty")
                continue
            }
            let key = "\(food.category)\u{0}\(food.name)"
            if let first = foodKeys[key] {
                problem(position, "'\(food.name)' in '\(food.category)' is also used by \(first)")
                continue
            }
            if let id = food.id, !CatalogDocument.validIDs.contains(id) {
                problem(position, CatalogDocument.idRejection(id))
                continue
            }
            foodKeys[key] = position
            let found: Result<ImageRef, CatalogError>
            if let given = food.image {
                found = image(given)
            } else if let imagesDir {
                found = looked.image(named: food.name, in: imagesDir, label: imagesDirLabel)
            } else {
                found = .failure(
                    .notFound(path: position, reason: "no image given and no imagesDir to find '\(food.name)' in"))
            }
            switch found {
            case .success(let ref):
                foods.append(
                    Food(position: position, id: food.id, category: food.category, name: food.name, image: ref))
            case .failure(let error): problem(position, error.reason)
            }
        }
    }

    /// The image at `given` (relative to `base`), checked as `watch` checks an inbox file
    /// (`SourceImage`: a regular file within the limits that decodes) and hashed.
    static func image(_ given: String, base: String) -> Result<ImageRef, CatalogError> {
        var once = ImageLookups()
        return once.image(given, base: base)
    }

    /// `image(_:base:)`'s answer for a picture already loaded as `loaded`.
    static func image(_ given: String, path: String, loaded: Result<ImageRef, CatalogError>) -> Result<
        ImageRef, CatalogError
    > {
        switch loaded {
        case .success(let ref): return .success(ref)
        case .failure(let error):
            let reason = "image '\(given)': \(error.reason)"
            switch error {
            case .notFound: return .failure(.notFound(path: path, reason: reason))
            case .io: return .failure(.io(path: path, reason: reason))
            default: return .failure(.invalidRecord(path: path, reason: reason))
            }
        }
    }

    /// `<name>.png`, `.jpg` or `.jpeg` (or upper-case) in `folder`. A name that could leave the
    /// folder or name a hidden file (`/`, NUL, a leading `.`, an empty name) finds nothing.
    static func image(named name: String, in folder: String, label: String) -> Result<ImageRef, CatalogError> {
        var once = ImageLookups()
        return once.image(named: name, in: folder, label: label)
    }
}

/// The pictures one import has loaded (`SourceImage.load`), by resolved path, and the answers
/// `ImportPlan.image` gives from them.
struct ImageLookups {
    private var loaded: [String: Result<ImageRef, CatalogError>] = [:]

    /// `ImportPlan.image(_:base:)`, loading each path once.
    mutating func image(_ given: String, base: String) -> Result<ImageRef, CatalogError> {
        let path = PathResolution.resolve(given, against: base)
        if loaded[path] == nil {
            do throws(CatalogError) {
                loaded[path] = .success(try SourceImage.load(path: path))
            } catch {
                loaded[path] = .failure(error)
            }
        }
        return ImportPlan.image(given, path: path, loaded: loaded[path]!)
    }

    /// `ImportPlan.image(named:in:label:)`, loading each path once.
    mutating func image(named name: String, in folder: String, label: String) -> Result<ImageRef, CatalogError> {
        let missing = CatalogError.notFound(path: folder, reason: "no image named '\(name)' in \(label)")
        // No separators, no NUL, and no leading dot (no `..`, no hidden `.png` for an empty name).
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\u{0}") else {
            return .failure(missing)
        }
        let exts = ["png", "jpg", "jpeg", "webp", "heic", "heif", "avif"]
        for ext in exts + exts.map({ $0.uppercased() }) {
            let candidate = (folder as NSString).appendingPathComponent("\(name).\(ext)")
            if FileManager.default.fileExists(atPath: candidate) {
                return image(candidate, base: folder)
            }
        }
        return .failure(missing)
    }
}
