// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct CatalogImporterTests {
    /// A workspace with images for the sample file.
    static func sample() throws -> TestWorkspace {
        let workspace = try TestWorkspace()
        try workspace.jpeg("data/img/potato.jpg", seed: 1)
        try workspace.jpeg("data/img/stink.jpg", seed: 2)
        try workspace.png("data/img/Chicken Marsala.png", seed: 3)
        try workspace.jpeg("data/img/Lasagna.jpeg", seed: 4)
        try workspace.png("data/icons/empty.png", seed: 5)
        try workspace.png("data/icons/half.png", seed: 6)
        try workspace.png("data/icons/full.png", seed: 7)
        try workspace.png("data/logo.png", seed: 8)
        return workspace
    }

    static let goodJSON = """
        {"categories": ["Chicken", "Pasta"],
         "bugs": [{"title": "Potato Bug", "rating": 3.5, "image": "img/potato.jpg"},
                  {"title": "Stink Bug", "image": "img/stink.jpg"}],
         "foods": [{"category": "Chicken", "name": "Chicken Marsala", "image": "img/Chicken Marsala.png"},
                   {"category": "Pasta", "name": "Lasagna"}],
         "imagesDir": "img",
         "ratingIcons": {"empty": "icons/empty.png", "half": "icons/half.png", "full": "icons/full.png"},
         "logo": "logo.png"}
        """

    @Test(arguments: CatalogBackend.all) func aGoodFileImportsEveryRecordWithPathsRelativeToIt(backend: CatalogBackend)
        throws
    {
        let workspace = try Self.sample()
        let file = try workspace.write("data/catalog.json", text: Self.goodJSON)
        let store = try workspace.store(backend: backend)
        let report = try CatalogImporter(store: store).importFile(at: file)
        #expect(report.problems == [])
        #expect(
            report.bugs == .init(added: 2) && report.foods == .init(added: 2) && report.categories == .init(added: 2))
        let bugs = try store.bugs()
        #expect(bugs.map(\.title) == ["Potato Bug", "Stink Bug"])
        #expect(bugs.map(\.rating.value) == [3.5, 0])
        #expect(bugs.first?.image?.path == workspace.path("data/img/potato.jpg"))
        #expect(bugs.first?.image?.sha256 == (try ContentHash.sha256(ofFileAt: workspace.path("data/img/potato.jpg"))))
        let foods = try store.foods()
        #expect(foods.map(\.name) == ["Chicken Marsala", "Lasagna"])
        #expect(foods.last?.image?.path == workspace.path("data/img/Lasagna.jpeg"))  // found by name
        let assets = try store.assets()
        #expect(assets.imagesDir == workspace.path("data/img"))
        #expect(assets.ratingHalf == workspace.path("data/icons/half.png"))
        #expect(assets.logo == workspace.path("data/logo.png"))
    }

    @Test(arguments: CatalogBackend.all) func importingTheSameFileTwiceAddsNothingTheSecondTime(backend: CatalogBackend)
        throws
    {
        let workspace = try Self.sample()
        let file = try workspace.write("data/catalog.json", text: Self.goodJSON)
        let store = try workspace.store(backend: backend)
        let importer = CatalogImporter(store: store)
        _ = try importer.importFile(at: file)
        let before = try store.bugs() + []
        let second = try importer.importFile(at: file)
        #expect(second.bugs == .init(unchanged: 2))
        #expect(second.foods == .init(unchanged: 2))
        #expect(second.categories == .init(unchanged: 2))
        #expect(try store.bugs() == before)
        #expect(try store.foods().count == 2 && store.categories().count == 2)
    }

    @Test(arguments: CatalogBackend.all) func aChangedRecordIsUpdatedInPlaceNotDuplicated(backend: CatalogBackend)
        throws
    {
        let workspace = try Self.sample()
        let store = try workspace.store(backend: backend)
        let importer = CatalogImporter(store: store)
        let file = try workspace.write("data/catalog.json", text: Self.goodJSON)
        _ = try importer.importFile(at: file)
        let id = try #require(try store.bugs().first?.id)
        try workspace.write("data/catalog.json", text: Self.goodJSON.replacingOccurrences(of: "3.5", with: "4.5"))
        let report = try importer.importFile(at: file)
        #expect(report.bugs == .init(updated: 1, unchanged: 1))
        let bugs = try store.bugs()
        #expect(bugs.count == 2)
        #expect(bugs.first?.id == id && bugs.first?.rating.value == 4.5)
    }

    static let badJSON = """
        {"categories": ["Chicken"],
         "bugs": [{"title": "Good Bug", "rating": 2},
                  {"title": "No Such Image", "image": "img/missing.jpg"},
                  {"title": "Seven", "rating": 7},
                  {"rating": 1},
                  {"title": "Good Bug"},
                  {"title": "Stringy", "rating": "high"}],
         "foods": [{"category": "Chicken", "name": "X"},
                   {"category": "Chicken", "name": "Chicken Marsala"},
                   {"category": "Soup", "name": "Chicken Marsala"}],
         "imagesDir": "img"}
        """

    @Test(arguments: CatalogBackend.all) func eachBadRecordIsReportedWithItsPositionAndTheGoodOnesGoIn(
        backend: CatalogBackend
    ) throws {
        let workspace = try Self.sample()
        let file = try workspace.write("data/catalog.json", text: Self.badJSON)
        let store = try workspace.store(backend: backend)
        let report = try CatalogImporter(store: store).importFile(at: file)
        let lines = report.problems.map(\.description)
        #expect(
            report.problems.map(\.path) == [
                "bugs[1]", "bugs[2]", "bugs[3]", "bugs[4]", "bugs[5]", "foods[0]", "foods[2]",
            ])
        #expect(lines.contains("bugs[2]: rating 7 is not between 0 and 5 in steps of 0.5"))
        #expect(lines.contains("bugs[3]: missing 'title'"))
        #expect(lines.contains("bugs[4]: title 'Good Bug' is also used by bugs[0]"))
        #expect(lines.contains("bugs[5]: 'rating' should be a number"))
        #expect(lines.contains("foods[0]: no image named 'X' in img"))
        #expect(lines.contains("foods[2]: category 'Soup' is not in categories"))
        #expect(lines[0].hasPrefix("bugs[1]: image 'img/missing.jpg'"))
        #expect(report.applied)
        #expect(try store.bugs().map(\.title) == ["Good Bug"])
        #expect(try store.foods().map(\.name) == ["Chicken Marsala"])
    }

    @Test(arguments: CatalogBackend.all) func anAtomicImportWritesNothingWhenAnyRecordIsBad(backend: CatalogBackend)
        throws
    {
        let workspace = try Self.sample()
        let file = try workspace.write("data/catalog.json", text: Self.badJSON)
        let store = try workspace.store(backend: backend)
        let report = try CatalogImporter(store: store).importFile(at: file, atomic: true)
        #expect(!report.applied)
        #expect(report.problems.count == 7)
        #expect(report.bugs == .init() && report.foods == .init())
        #expect(try store.bugs().isEmpty && store.foods().isEmpty && store.categories().isEmpty)
    }

    @Test(arguments: CatalogBackend.all) func theFilesOwnAtomicFlagIsHonoured(backend: CatalogBackend) throws {
        let workspace = try Self.sample()
        let json = #"{"atomic": true, "bugs": [{"title": "Fine"}, {"title": "Bad", "rating": 5.5}]}"#
        let file = try workspace.write("data/catalog.json", text: json)
        let store = try workspace.store(backend: backend)
        let report = try CatalogImporter(store: store).importFile(at: file)
        #expect(!report.applied)
        #expect(report.problems.map(\.description) == ["bugs[1]: rating 5.5 is not between 0 and 5 in steps of 0.5"])
        #expect(try store.bugs().isEmpty)
    }

    @Test(arguments: CatalogBackend.all) func anAtomicImportOfAGoodFileGoesIn(backend: CatalogBackend) throws {
        let workspace = try Self.sample()
        let file = try workspace.write("data/catalog.json", text: Self.goodJSON)
        let store = try workspace.store(backend: backend)
        let report = try CatalogImporter(store: store).importFile(at: file, atomic: true)
        #expect(report.applied && report.isClean)
        #expect(try store.bugs().count == 2)
    }

    @Test(arguments: [
        ("{\"bugs\": [{\"title\": \"A\", \"image\": \"../../../../etc/hostname-nope\"}]}", "bugs[0]"),
        ("{\"bugs\": [{\"title\": \"A\", \"image\": \"notes.txt\"}]}", "bugs[0]"),
        (
            "{\"categories\": [\"C\"], \"foods\": [{\"category\": \"C\", \"name\": \"../logo\"}], \"imagesDir\": \"img\"}",
            "foods[0]"
        ),
        ("{\"categories\": [\"C\"], \"foods\": [{\"category\": \"C\", \"name\": \"Lasagna\"}]}", "foods[0]"),
        ("{\"imagesDir\": \"nowhere\"}", "imagesDir"),
        ("{\"ratingIcons\": {\"full\": \"icons/none.png\"}}", "ratingIcons.full"),
        ("{\"categories\": [\"A\", \"A\", \"\"]}", "categories[1]"),
    ])
    func hostileOrBrokenEntriesAreReportedNotImported(json: String, position: String) throws {
        let workspace = try Self.sample()
        try workspace.write("data/notes.txt", text: "hello")
        let file = try workspace.write("data/catalog.json", text: json)
        let store = try workspace.store()
        let report = try CatalogImporter(store: store).importFile(at: file)
        #expect(report.problems.first?.path == position, "\(report.problems)")
        #expect(try store.bugs().isEmpty && store.foods().isEmpty)
    }

    @Test(arguments: ["not json", "[1, 2]", "{\"bugs\": 3}"])
    func aFileThatIsNotAnImportDocumentIsRejectedWhole(text: String) throws {
        let workspace = try TestWorkspace()
        let file = try workspace.write("catalog.json", text: text)
        let store = try workspace.store()
        let error = catalogError { try CatalogImporter(store: store).importFile(at: file) }
        guard case .invalidDocument(let path, _) = error else {
            Issue.record("expected invalidDocument, got \(String(describing: error))")
            return
        }
        #expect(path == file)
    }

    @Test(arguments: CatalogBackend.all) func aMissingFileIsTheOneMissingFileError(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let error = catalogError { try CatalogImporter(store: store).importFile(at: workspace.path("none.json")) }
        #expect(error == .missingFile(workspace.path("none.json")))
        #expect(error?.reason == "no such file or directory")
    }
}
