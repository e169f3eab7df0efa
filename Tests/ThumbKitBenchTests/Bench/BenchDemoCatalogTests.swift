// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

struct BenchDemoCatalogTests {
    @Test func preparingDrawsAndImportsTheDemoIntoABareDatabaseAndMeasuresItsSources() throws {
        let workspace = try TestWorkspace()
        let catalog = try BenchDemoCatalog.prepare(in: workspace.path("demo-catalog"))
        #expect(catalog.database == workspace.path("demo-catalog/catalog.sqlite"))
        // The store is closed: the file alone holds the catalog, so a plain copy is complete.
        #expect(!FileManager.default.fileExists(atPath: catalog.database + "-wal"))
        let store = try CatalogStore(path: catalog.database)
        let (bugs, foods, outputs) = try store.read { tx in (try tx.bugs(), try tx.foods(), try tx.outputs()) }
        #expect(bugs.count == 8 && foods.count == 18 && outputs.isEmpty)
        // Decoded once per build: 8 bug pictures (640×480), 18 dishes (800×600), the logo
        // (1024×1024) and the two star icons (64×64).
        #expect(catalog.sources == 8 + 18 + 1 + 2)
        let pixels: Int = 8 * 640 * 480 + 18 * 800 * 600 + 1024 * 1024 + 2 * 64 * 64
        let megapixels = Double(pixels) / 1e6
        #expect(abs(catalog.megapixels - megapixels) < 1e-9)
    }

    @Test func everyRunGetsAnUntouchedCopyOfThePreparedDatabase() throws {
        let workspace = try TestWorkspace()
        let catalog = try BenchDemoCatalog.prepare(in: workspace.path("demo-catalog"))
        let first = workspace.path("run-1")
        let second = workspace.path("run-2")
        for run in [first, second] {
            try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
            try catalog.copyDatabase(into: run)
        }
        // A change to one run's copy (a build's rows) reaches neither the prepared file nor the
        // next run's copy.
        func logo(_ run: String) throws -> String? {
            try CatalogStore(path: run + "/" + BenchDemoCatalog.databaseName).read { try $0.assets().logo }
        }
        try CatalogStore(path: first + "/" + BenchDemoCatalog.databaseName).write { tx in
            try tx.setSetting("logo", to: nil)
        }
        #expect(try logo(first) == nil)
        #expect(try logo(second) != nil)
        #expect(try CatalogStore(path: catalog.database).read { try $0.assets().logo } != nil)
        // Copying again over a used copy replaces it.
        try catalog.copyDatabase(into: first)
        #expect(try logo(first) != nil)
    }

    @Test(arguments: [
        (#"{"made": 188, "upToDate": 0, "removed": 0, "failed": 0, "failures": []}"#, [String]()),
        (
            #"{"made": 0, "upToDate": 188, "removed": 0, "failed": 0, "failures": []}"#,
            ["the build made nothing", "not a full build: 0 made, 188 up to date, 0 removed, 0 failed"]
        ),
        (
            #"{"made": 150, "upToDate": 0, "removed": 3, "failed": 0, "failures": []}"#,
            ["not a full build: 150 made, 0 up to date, 3 removed, 0 failed"]
        ),
        ("thumbkit: something went wrong\n", ["the build's summary is missing from its output"]),
    ])
    func aRunMustHaveBeenAFullBuild(log: String, problems: [String]) {
        #expect(BenchDemoCatalog.verify(log: log) == problems)
    }

    @Test func theImagesOfARunAreThePNGAndJPEGFilesItsBuildWrote() throws {
        let workspace = try TestWorkspace()
        try workspace.write("run/build/bugs/1-a/bug-list.x.jpg", text: "j")
        try workspace.write("run/build/ratings/rating-1.y@2x.png", text: "p")
        try workspace.write("run/build/app/AppIcon.appiconset/Contents.json", text: "{}")
        try workspace.write("run/catalog.sqlite", text: "db")
        #expect(BenchDemoCatalog.images(inRun: workspace.path("run")) == 2)
        #expect(BenchDemoCatalog.images(inRun: workspace.path("nothing")) == 0)
    }
}
