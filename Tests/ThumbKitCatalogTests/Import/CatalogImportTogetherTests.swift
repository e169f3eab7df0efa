// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// An import batch goes in `together` (a few statements) when it can, record by record when it
/// cannot: both must make the same rows, ids, queue entries, counts and problems.
struct CatalogImportTogetherTests {
    /// What both paths start from: bugs 1–3, food 10, categories `Chicken` and `Café` (NFC).
    private static func seed(_ store: CatalogStore) throws {
        try store.write { tx in
            try tx.addCategory("Chicken")
            try tx.addCategory("Caf\u{e9}")
            try tx.addBug(title: "Old", rating: Rating(exactly: 1)!, id: 1)
            try tx.addBug(title: "Caf\u{e9}", rating: Rating(exactly: 2)!)
            try tx.addBug(title: "Same", rating: Rating(exactly: 3)!)
            try tx.addFood(category: "Chicken", name: "Wings", image: nil, id: 10)
        }
    }

    /// Adds, updates and ids that collide every way the record-by-record path resolves.
    private static let document = #"""
        {"bugs": [
            {"title": "New A"},
            {"title": "Old", "rating": 4.5},
            {"title": "Same", "rating": 3},
            {"title": "Cafe\u0301", "rating": 1},
            {"title": "Wants 5", "id": 5},
            {"title": "Wants 1", "id": 1},
            {"title": "Wants 50", "id": 50, "image": "img/a.png"},
            {"title": "Also 50", "id": 50},
            {"title": "After 50"},
            {"title": "Wants 52", "id": 52}],
         "foods": [
            {"category": "Chicken", "name": "Wings", "image": "img/a.png"},
            {"category": "Chicken", "name": "Thighs", "id": 10, "image": "img/a.png"},
            {"category": "Caf\u00e9", "name": "Soup", "id": 20, "image": "img/b.png"},
            {"category": "Chicken", "name": "Soup", "image": "img/b.png"},
            {"category": "Chicken", "name": "Stew", "id": 21, "image": "img/a.png"}]}
        """#

    /// What the catalog holds, text as bytes: records, queue, and the id the next bug gets.
    private static func snapshot(_ store: CatalogStore, in workspace: TestWorkspace) throws -> [String] {
        let rows = try store.read { tx in
            try tx.bugs().map {
                "bug \($0.id) \(Array($0.title.utf8)) \($0.rating.value) \($0.image.map(\.sha256) ?? "-")"
            }
                + tx.foods().map { "food \($0.id) \($0.categoryID) \(Array($0.name.utf8)) \($0.image?.sha256 ?? "-")" }
                + tx.connection.query("SELECT record_kind, record_id, attempts FROM build_queue ORDER BY 1, 2") {
                    "queued \($0.string(0)) \($0.int(1)) \($0.int(2))"
                }
        }
        let next = try store.write { try $0.addBug(title: "Next").id }
        let export = try CatalogExporter(store: store).data(relativeTo: workspace.root)
        return rows + ["next bug \(next)", String(decoding: export, as: UTF8.self)]
    }

    private static func workspace() throws -> TestWorkspace {
        let workspace = try TestWorkspace()
        try workspace.png("img/a.png", seed: 1)
        try workspace.png("img/b.png", seed: 2)
        return workspace
    }

    @Test(arguments: CatalogBackend.all) func aBatchTogetherMakesWhatRecordByRecordMakes(backend: CatalogBackend) throws
    {
        let workspace = try Self.workspace()
        let one = try workspace.store("one.sqlite", backend: backend)
        let together = try workspace.store("together.sqlite", backend: backend)
        try Self.seed(one)
        try Self.seed(together)
        let data = Data(Self.document.utf8)
        let expected = try CatalogImporter(store: one, recordByRecord: true).importData(
            data, source: "doc.json", base: workspace.root)
        #expect(expected.isClean, "\(expected.problems)")
        #expect(expected.bugs == .init(added: 8, updated: 1, unchanged: 1))
        // The together path alone, so that no fallback can hide a difference.
        let plan = ImportPlan(
            document: try JSONDecoder().decode(ImportDocument.self, from: data), base: workspace.root,
            storedImagesDir: nil)
        #expect(plan.problems == [])
        let importer = CatalogImporter(store: together)
        let counts = try together.write { tx in
            (try importer.together(plan.bugs[...], in: tx), try importer.together(plan.foods[...], in: tx))
        }
        #expect(counts.0 == expected.bugs && counts.1 == expected.foods)
        let ids = try together.bugs().map(\.id)
        #expect(ids == [1, 2, 3, 4, 5, 6, 7, 50, 51, 52, 53])
        #expect(try together.foods().map(\.id).sorted() == [10, 11, 20, 21, 22])
        #expect(try Self.snapshot(together, in: workspace) == Self.snapshot(one, in: workspace))
    }

    @Test(arguments: CatalogBackend.all) func aBatchTheDatabaseRefusesPartlyGoesInRecordByRecord(
        backend: CatalogBackend
    ) throws {
        let workspace = try Self.workspace()
        let one = try workspace.store("one.sqlite", backend: backend)
        let batched = try workspace.store("batched.sqlite", backend: backend)
        try Self.seed(one)
        try Self.seed(batched)
        // A title the database refuses (a NUL: SQLite's length() stops there, PostgreSQL cannot
        // store it) and a category that is `Café` only up to Unicode equivalence.
        let data = Data(
            #"""
            {"bugs": [{"title": "Fine 1"}, {"title": "\u0000x"}, {"title": "Fine 2", "id": 40}],
             "foods": [{"category": "Chicken", "name": "Pie", "image": "img/a.png"},
                       {"category": "Cafe\u0301", "name": "Tart", "image": "img/b.png"},
                       {"category": "Chicken", "name": "Wings", "image": "img/b.png"}]}
            """#.utf8)
        let expected = try CatalogImporter(store: one, recordByRecord: true).importData(
            data, source: "doc.json", base: workspace.root)
        let report = try CatalogImporter(store: batched).importData(data, source: "doc.json", base: workspace.root)
        #expect(expected.problems.map(\.path) == ["bugs[1]", "foods[1]"])
        #expect(report == expected)
        #expect(try Self.snapshot(batched, in: workspace) == Self.snapshot(one, in: workspace))
    }

    @Test(arguments: CatalogBackend.all) func aReimportTogetherCountsAndChangesWhatRecordByRecordDoes(
        backend: CatalogBackend
    ) throws {
        let workspace = try Self.workspace()
        let one = try workspace.store("one.sqlite", backend: backend)
        let batched = try workspace.store("batched.sqlite", backend: backend)
        let data = Data(Self.document.utf8)
        let changed = Data(
            Self.document.replacingOccurrences(of: "\"rating\": 4.5", with: "\"rating\": 0.5")
                .replacingOccurrences(of: "img/a.png", with: "img/b.png").utf8)
        for store in [one, batched] { try Self.seed(store) }
        for doc in [data, data, changed] {
            let expected = try CatalogImporter(store: one, recordByRecord: true).importData(
                doc, source: "doc.json", base: workspace.root)
            let report = try CatalogImporter(store: batched).importData(doc, source: "doc.json", base: workspace.root)
            #expect(report == expected)
            #expect(expected.isClean)
        }
        #expect(try Self.snapshot(batched, in: workspace) == Self.snapshot(one, in: workspace))
    }
}
