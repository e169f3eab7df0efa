// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct CatalogExporterTests {
    /// The document without outputs (an import does not restore them).
    static func records(_ document: CatalogDocument) -> CatalogDocument {
        var copy = document
        copy.bugs = copy.bugs.map {
            var b = $0
            b.outputs = []
            return b
        }
        copy.foods = copy.foods.map {
            var f = $0
            f.outputs = []
            return f
        }
        return copy
    }

    @Test(arguments: CatalogBackend.all) func anExportRoundTripsThroughImportIntoAnEmptyCatalog(backend: CatalogBackend)
        throws
    {
        let workspace = try CatalogImporterTests.sample()
        let source = try workspace.store("first.sqlite", backend: backend)
        let file = try workspace.write("data/catalog.json", text: CatalogImporterTests.goodJSON)
        _ = try CatalogImporter(store: source).importFile(at: file)
        try source.write { tx in
            // A gap in the ids and awkward titles: the restore must keep both.
            let gone = try tx.addBug(title: "Deleted")
            try tx.deleteBug(id: gone.id)
            try tx.addBug(title: "../../etc/passwd", rating: Rating(exactly: 5)!)
            try tx.addBug(title: "日本語 \"quoted\" / slash")
            let bug = try #require(try tx.bug(title: "Potato Bug"))
            try tx.upsertOutput(
                OutputValues(
                    record: bug.ref, recipe: "recipe/v1?name=bug-list", kind: .list, scale: 2,
                    path: "bugs/1-potato-bug/bug-list@2x.jpg", width: 88, height: 88, format: .jpeg,
                    bytes: 3000, sourceSHA256: bug.image!.sha256))
        }
        let exportPath = workspace.path("data/export.json")
        try CatalogExporter(store: source).export(to: exportPath)
        let first = try JSONDecoder().decode(
            CatalogDocument.self, from: Data(contentsOf: URL(fileURLWithPath: exportPath)))

        let restored = try workspace.store("second.sqlite", backend: backend)
        let report = try CatalogImporter(store: restored).importFile(at: exportPath)
        #expect(report.isClean, "\(report.problems)")
        let second = try CatalogExporter(store: restored).document(relativeTo: workspace.path("data"))

        #expect(Self.records(first) == Self.records(second))
        #expect(try restored.bugs().map(\.id) == source.bugs().map(\.id))
        #expect(try restored.bugs().map(\.title) == source.bugs().map(\.title))
    }

    @Test(arguments: CatalogBackend.all) func theExportListsRecordsWithRelativePathsAndTheirOutputs(
        backend: CatalogBackend
    ) throws {
        let workspace = try CatalogImporterTests.sample()
        let store = try workspace.store(backend: backend)
        _ = try CatalogImporter(store: store).importFile(
            at: try workspace.write("data/catalog.json", text: CatalogImporterTests.goodJSON))
        let bug = try #require(try store.bugs().first)
        try store.write { tx in
            try tx.upsertOutput(
                OutputValues(
                    record: bug.ref, recipe: "recipe/v1?name=bug-list", kind: .list, scale: 3,
                    path: "bugs/1-potato-bug/bug-list@3x.jpg", width: 132, height: 132, format: .jpeg,
                    bytes: 4096, sourceSHA256: "s"))
        }
        let data = try CatalogExporter(store: store).data(relativeTo: workspace.path("data"))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""image" : "img/potato.jpg""#))
        #expect(text.contains(#""path" : "bugs/1-potato-bug/bug-list@3x.jpg""#))
        #expect(text.contains(#""imagesDir" : "img""#))
        let document = try JSONDecoder().decode(CatalogDocument.self, from: data)
        let output = try #require(document.bugs.first?.outputs?.first)
        #expect(output.width == 132 && output.height == 132 && output.scale == 3 && output.kind == .list)
        #expect(output.format == "jpeg" && output.bytes == 4096 && output.recipe == "recipe/v1?name=bug-list")
        #expect(document.bugs.first?.rating.value == 3.5)
        #expect(document.foods.map(\.category) == ["Chicken", "Pasta"])
        #expect(document.categories == ["Chicken", "Pasta"])
    }

    @Test(arguments: CatalogBackend.all) func pathsOutsideTheExportFolderStayAbsolute(backend: CatalogBackend) throws {
        let workspace = try CatalogImporterTests.sample()
        let store = try workspace.store(backend: backend)
        let image = try workspace.jpeg("elsewhere/pic.jpg")
        try store.write { try $0.addBug(title: "Far", image: try ImageRef.load(path: image)) }
        let document = try CatalogExporter(store: store).document(relativeTo: workspace.path("data"))
        #expect(document.bugs.first?.image == image)
    }
}
