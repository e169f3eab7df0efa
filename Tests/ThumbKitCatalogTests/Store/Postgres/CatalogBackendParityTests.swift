// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// The same catalog on SQLite and on PostgreSQL gives the same bytes: the export, and every
/// file a build makes.
@Suite(.enabled(if: CatalogBackend.postgresEnabled, "THUMBKIT_TEST_POSTGRES_URL is not set"))
struct CatalogBackendParityTests {
    /// An import with awkward text (bytes that sort differently under a locale's collation
    /// than by bytes, quotes, SQL), rated bugs and a food, then a build into `out`.
    private func importAndBuild(_ backend: CatalogBackend, in workspace: TestWorkspace, out: String) throws
        -> (export: Data, files: [String: Data])
    {
        let store = try workspace.store(backend.rawValue + ".sqlite", backend: backend)
        let file = try workspace.write("data/catalog.json", text: CatalogImporterTests.goodJSON)
        let report = try CatalogImporter(store: store).importFile(at: file)
        #expect(report.isClean, "\(report.problems)")
        try store.write { tx in
            for title in ["b", "B", "a", "Ä", "_z", "'; DROP TABLE bugs; --", "x\"y", "ǅ"] {
                try tx.addBug(title: title, rating: Rating(exactly: 4.5)!)
            }
            try tx.addCategory("apple")
            try tx.addCategory("Zebra")
            try tx.addFood(category: "apple", name: "Crumble", image: nil)
        }
        let build = CatalogBuilder(store: store, outputDirectory: out, jobs: 2).build()
        #expect(build.failures == [] && build.made > 0)
        let files = OutputFolder(root: out).files(in: [""], includeHidden: true).filter {
            $0 != OutputFolder.markerName
        }
        var contents: [String: Data] = [:]
        for name in files { contents[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) }
        let export = try CatalogExporter(store: store).data(relativeTo: workspace.path("data"))
        return (export, contents)
    }

    @Test func theSameImportExportsAndBuildsByteForByteTheSameOnBothBackends() throws {
        let workspace = try CatalogImporterTests.sample()
        let sqlite = try importAndBuild(.sqlite, in: workspace, out: workspace.path("out-sqlite"))
        let postgres = try importAndBuild(.postgres, in: workspace, out: workspace.path("out-postgres"))
        #expect(String(decoding: sqlite.export, as: UTF8.self) == String(decoding: postgres.export, as: UTF8.self))
        #expect(sqlite.export == postgres.export)
        #expect(sqlite.files.keys.sorted() == postgres.files.keys.sorted())
        #expect(sqlite.files.count > 10)
        for (name, bytes) in sqlite.files { #expect(postgres.files[name] == bytes, "\(name)") }
    }
}
