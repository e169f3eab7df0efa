// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Reads an import file into the catalog.
///
/// ### Format
/// ```json
/// {"categories": ["Chicken"],
///  "bugs": [{"title": "Potato Bug", "rating": 3.5, "image": "img/potato.jpg"}],
///  "foods": [{"category": "Chicken", "name": "Chicken Marsala", "image": "img/Chicken Marsala.png"}],
///  "imagesDir": "img",
///  "ratingIcons": {"empty": "icons/empty.png", "half": "icons/half.png", "full": "icons/full.png"},
///  "logo": "logo.png",
///  "atomic": false}
/// ```
/// Every key is optional. Paths are relative to the JSON file's folder. A food without `image`
/// is found by name in `imagesDir` (or the catalog's stored images folder) as `<name>.png`,
/// `.jpg` or `.jpeg`. A bug without `rating` gets 0 when new and keeps its rating otherwise.
/// A food's category must be listed in `categories` or already be in the catalog. Categories
/// listed are put first, in the file's order. An export (`CatalogDocument`) is also a valid
/// import file: its `id`s are reused for new records when free, its `outputs` are ignored.
///
/// ### Behaviour
/// - An `id` must be in `CatalogDocument.validIDs` (1 to 2^53 − 1); a picture must pass
///   `SourceImage`'s checks (a regular file within the limits that decodes), as in `watch`.
/// - Each bad record is reported by position (`bugs[2]: rating 7 is not between 0 and 5 in steps
///   of 0.5`) and skipped; the good ones go in, `batchSize` records per transaction (so a
///   100,000-record file takes seconds, and a watch folder writing meanwhile waits only for
///   one batch). An import killed half-way leaves the batches it committed; running it again
///   finishes it, as records are matched (below).
/// - With `atomic` (the argument or the file's `"atomic": true`), everything goes in one
///   transaction, and nothing goes in if any record is bad.
/// - Importing the same file twice changes nothing the second time: bugs are matched by title,
///   foods by (category, name), and updated in place.
public struct CatalogImporter: Sendable {
    /// The catalog to import into.
    public let store: CatalogStore

    /// Whether every batch goes in record by record, never `together`: the path the fast one
    /// must match, for the tests that compare the two.
    let recordByRecord: Bool

    public init(store: CatalogStore) {
        self.init(store: store, recordByRecord: false)
    }

    init(store: CatalogStore, recordByRecord: Bool) {
        self.store = store
        self.recordByRecord = recordByRecord
    }

    /// Imports the JSON file at `path`.
    ///
    /// - Throws: `CatalogError.missingFile` when there is no such file, `.io` when it cannot be
    ///   read, `.invalidDocument` when it is not valid JSON (naming the line and column) or not a
    ///   JSON object of the right shape, or a store error (`.locked`, `.corrupt`).
    ///   Bad records are not thrown: they are in the report's `problems`.
    public func importFile(at path: String, atomic: Bool = false) throws -> ImportReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            if !FileManager.default.fileExists(atPath: path) { throw CatalogError.missingFile(path) }
            throw CatalogError.io(path: path, reason: "cannot read import file")
        }
        return try importData(data, source: path, base: PathResolution.folder(of: path), atomic: atomic)
    }

    /// Imports JSON `data`; relative paths in it are resolved against `base`, and `source` names
    /// it in errors.
    public func importData(_ data: Data, source: String, base: String, atomic: Bool = false) throws -> ImportReport {
        let bytes = [UInt8](data)
        // UTF-8 (the only encoding written): check the syntax first, to say where it breaks.
        if !(bytes.prefix(2).contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])),
            let failure = JSONSyntax.firstError(in: bytes)
        {
            throw CatalogError.invalidDocument(path: source, reason: "not valid JSON: \(failure)")
        }
        let document: ImportDocument
        do {
            document = try JSONDecoder().decode(ImportDocument.self, from: data)
        } catch let error as DecodingError {
            throw CatalogError.invalidDocument(
                path: source, reason: Lenient<ImportDocument>.describe(error, droppingFirst: 0))
        }
        let isAtomic = atomic || document.atomic == true
        let stored = try store.read { try $0.assets() }
        var plan = ImportPlan(
            document: document, base: PathResolution.standardize(base), storedImagesDir: stored.imagesDir)
        var report = ImportReport()
        do {
            if isAtomic {
                try store.write { tx in
                    try prepare(&plan, in: tx, atomic: true, report: &report)
                    let (bugs, foods) = (plan.bugs.indices, plan.foods.indices)
                    try apply(&plan, bugs: bugs, foods: foods, in: tx, atomic: true, report: &report)
                    try applySettings(&plan, in: tx, atomic: true)
                }
            } else {
                try store.write { tx in try prepare(&plan, in: tx, atomic: false, report: &report) }
                for bugs in Self.batches(plan.bugs.count) {
                    try store.write { tx in
                        try apply(&plan, bugs: bugs, foods: 0..<0, in: tx, atomic: false, report: &report)
                    }
                }
                for foods in Self.batches(plan.foods.count) {
                    try store.write { tx in
                        try apply(&plan, bugs: 0..<0, foods: foods, in: tx, atomic: false, report: &report)
                    }
                }
                try store.write { tx in try applySettings(&plan, in: tx, atomic: false) }
            }
        } catch is AtomicAbort {
            report = ImportReport()
            report.applied = false
        }
        report.problems = plan.problems
        return report
    }

    /// Thrown inside the write block to roll an atomic import back.
    private struct AtomicAbort: Error {}

    /// Records per transaction of an import that is not atomic: large enough that committing
    /// costs little, small enough that other writers (a watch folder) wait only briefly.
    static let batchSize = 2_000

    /// `0..<count` in consecutive ranges of at most `batchSize`.
    static func batches(_ count: Int) -> [Range<Int>] {
        batches(within: 0..<count)
    }

    /// `range` in consecutive ranges of at most `batchSize`.
    static func batches(within range: Range<Int>) -> [Range<Int>] {
        stride(from: range.lowerBound, to: range.upperBound, by: batchSize).map {
            $0..<min($0 + batchSize, range.upperBound)
        }
    }

    /// Runs `body` in a savepoint of `tx`: a database refusal skips just that record (noted in
    /// `plan.problems`), and with `atomic` aborts the whole import.
    private func attempt(
        _ position: String, _ plan: inout ImportPlan, _ tx: CatalogTransaction, atomic: Bool, _ body: () throws -> Void
    ) throws {
        do {
            try tx.savepoint(body)
        } catch let error as CatalogError {
            switch error {
            case .locked, .corrupt, .database, .open, .schema: throw error
            default:
                plan.problems.append(.invalidRecord(path: position, reason: error.reason))
                if atomic { throw AtomicAbort() }
            }
        }
    }

    /// The checks that need the catalog, before any change, then the categories.
    private func prepare(_ plan: inout ImportPlan, in tx: CatalogTransaction, atomic: Bool, report: inout ImportReport)
        throws
    {
        let known = Set(try tx.categories().map(\.name)).union(plan.categories)
        plan.foods.removeAll { food in
            guard known.contains(food.category) else {
                plan.problems.append(
                    .invalidRecord(path: food.position, reason: "category '\(food.category)' is not in categories"))
                return true
            }
            return false
        }
        plan.problems.sort { Self.order($0.path) < Self.order($1.path) }
        if atomic, !plan.problems.isEmpty { throw AtomicAbort() }

        let before = Dictionary(try tx.categories().map { ($0.name, $0.position) }, uniquingKeysWith: { a, _ in a })
        let categories = plan.categories
        try attempt("categories", &plan, tx, atomic: atomic) { try tx.orderCategories(categories) }
        for category in try tx.categories() {
            switch before[category.name] {
            case nil: report.categories.added += 1
            case category.position: report.categories.unchanged += 1
            default: report.categories.updated += 1
            }
        }
    }

    /// The bugs and foods at `bugs` and `foods` in `plan`, `batchSize` at a time: each batch
    /// first all together in one savepoint (`together`, a few statements per batch), and when
    /// that fails (a record the database refuses, or anything else), again record by record,
    /// each in its own savepoint, which skips or reports just the bad ones. Both ways make the
    /// same rows, ids and counts.
    private func apply(
        _ plan: inout ImportPlan, bugs: Range<Int>, foods: Range<Int>, in tx: CatalogTransaction, atomic: Bool,
        report: inout ImportReport
    ) throws {
        for batch in Self.batches(within: bugs) {
            let records = plan.bugs[batch]
            if !recordByRecord, let counts = try? tx.savepoint({ try together(records, in: tx) }) {
                report.bugs.add(counts)
                continue
            }
            for bug in records {
                try attempt(bug.position, &plan, tx, atomic: atomic) {
                    guard let existing = try tx.bug(title: bug.title) else {
                        let freeID = try bug.id.flatMap { try tx.bug(id: $0) == nil ? $0 : nil }
                        try tx.addBug(title: bug.title, rating: bug.rating ?? .zero, image: bug.image, id: freeID)
                        report.bugs.added += 1
                        return
                    }
                    if try update(existing, as: bug, in: tx) {
                        report.bugs.updated += 1
                    } else {
                        report.bugs.unchanged += 1
                    }
                }
            }
        }

        for batch in Self.batches(within: foods) {
            let records = plan.foods[batch]
            if !recordByRecord, let counts = try? tx.savepoint({ try together(records, in: tx) }) {
                report.foods.add(counts)
                continue
            }
            for food in records {
                try attempt(food.position, &plan, tx, atomic: atomic) {
                    guard let existing = try tx.food(category: food.category, name: food.name) else {
                        let freeID = try food.id.flatMap { try tx.food(id: $0) == nil ? $0 : nil }
                        try tx.addFood(category: food.category, name: food.name, image: food.image, id: freeID)
                        report.foods.added += 1
                        return
                    }
                    if try update(existing, as: food, in: tx) {
                        report.foods.updated += 1
                    } else {
                        report.foods.unchanged += 1
                    }
                }
            }
        }
    }

    /// Gives the existing bug `existing` what `bug` gives (a rating, an image); false when it
    /// already had them.
    func update(_ existing: Bug, as bug: ImportPlan.Bug, in tx: CatalogTransaction) throws -> Bool {
        var changed = false
        if let rating = bug.rating, rating != existing.rating {
            try tx.rate(bugID: existing.id, rating: rating.value)
            changed = true
        }
        if let image = bug.image, image != existing.image {
            try tx.setImage(bugID: existing.id, image: image)
            changed = true
        }
        return changed
    }

    /// Gives the existing food `existing` the image `food` gives; false when it had it.
    func update(_ existing: Food, as food: ImportPlan.Food, in tx: CatalogTransaction) throws -> Bool {
        guard existing.image != food.image else { return false }
        try tx.setImage(foodID: existing.id, image: food.image)
        return true
    }

    /// The settings the file gives.
    private func applySettings(_ plan: inout ImportPlan, in tx: CatalogTransaction, atomic: Bool) throws {
        let given = plan.assets
        try attempt("settings", &plan, tx, atomic: atomic) {
            var assets = try tx.assets()
            for (_, field) in CatalogAssets.keys {
                if let value = given[keyPath: field] { assets[keyPath: field] = value }
            }
            try tx.setAssets(assets)
        }
    }

    /// Sort key that keeps problems in file order: settings, categories, bugs, foods, by index.
    static func order(_ position: String) -> (Int, Int) {
        let sections = ["imagesDir", "ratingIcons", "logo", "categories", "bugs", "foods"]
        let section = sections.firstIndex { position.hasPrefix($0) } ?? sections.count
        let index = position.split(separator: "[").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        return (section, index)
    }
}
