// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// Rating strips as outputs: shared files under `ratings/`, attached to each bug.
struct RatingBuildTests {
    typealias Fixture = CatalogBuilderTests.Fixture

    @Test(arguments: CatalogBackend.all) func everyRatingIsMadeAtEveryScaleAndEachBugPointsAtItsOwn(
        backend: CatalogBackend
    ) throws {
        let fixture = try Fixture(assets: true, backend: backend)
        let report = fixture.builder().build()
        #expect(report.failures == [])
        let strips = try fixture.rows(.app).filter { $0.kind == .rating }
        #expect(strips.count == Rating.all.count * 3)
        #expect(Set(strips.map(\.path)).count == strips.count)
        #expect(strips.allSatisfy { $0.path.hasPrefix("ratings/rating-") && $0.format == .png })
        let potato = try fixture.rows(.bug(1)).filter { $0.kind == .rating }
        #expect(potato.map(\.scale) == [1, 2, 3])
        #expect(potato.allSatisfy { $0.path.hasPrefix("ratings/rating-3.5-stars.") })
        #expect(potato.map(\.width) == [116, 232, 348] && potato.map(\.height) == [20, 40, 60])
        #expect(Set(potato.map(\.path)).isSubset(of: strips.map(\.path)))
        #expect(try consistencyProblems(store: fixture.store, outputDirectory: fixture.out) == [])
    }

    @Test(arguments: CatalogBackend.all) func reratingABugPointsItAtTheNewStripAndKeepsTheSharedFiles(
        backend: CatalogBackend
    ) throws {
        let fixture = try Fixture(assets: true, backend: backend)
        _ = fixture.builder().build()
        let before = fixture.files()
        try fixture.store.rate(bugID: 1, rating: 4)
        let report = fixture.builder().build(only: [.bug(1)])
        #expect(report.made == 3 && report.removed == 3 && report.failures == [])
        let rows = try fixture.rows(.bug(1)).filter { $0.kind == .rating }
        #expect(rows.count == 3 && rows.allSatisfy { $0.path.hasPrefix("ratings/rating-4-stars.") })
        #expect(rows.allSatisfy { $0.recipe.hasSuffix("value=4") })
        #expect(fixture.files() == before)
    }

    @Test(arguments: CatalogBackend.all) func aPartialBuildMakesTheStripsItsBugsNeedWhenMissing(backend: CatalogBackend)
        throws
    {
        let fixture = try Fixture(assets: true, backend: backend)
        let report = fixture.builder().build(only: [.bug(2)])
        #expect(report.failures == [])
        #expect(try fixture.rows(.bug(2)).filter { $0.kind == .rating }.count == 3)
        #expect(try fixture.rows(.app).filter { $0.kind == .rating }.count == Rating.all.count * 3)
        // Only a full build makes the app icons.
        #expect(try fixture.rows(.app).allSatisfy { $0.kind == .rating })
        #expect(try fixture.rows(.bug(1)).isEmpty)
        #expect(try consistencyProblems(store: fixture.store, outputDirectory: fixture.out) == [])
    }

    @Test(arguments: CatalogBackend.all) func newIconsRemakeTheStripsUnderNewNamesAndDropTheOldOnes(
        backend: CatalogBackend
    ) throws {
        let fixture = try Fixture(assets: true, backend: backend)
        _ = fixture.builder().build()
        let old = Set(try fixture.store.read { try $0.outputs() }.filter { $0.kind == .rating }.map(\.path))
        try fixture.workspace.icon("icons/full.png", side: 12, color: RGBA(200, 40, 40))
        let report = fixture.builder().build()
        #expect(report.failures == [])
        #expect(report.made == Rating.all.count * 3 + 2 * 3)
        let new = Set(try fixture.store.read { try $0.outputs() }.filter { $0.kind == .rating }.map(\.path))
        #expect(new.isDisjoint(with: old))
        for path in old { #expect(!FileManager.default.fileExists(atPath: fixture.out + "/" + path)) }
        #expect(try consistencyProblems(store: fixture.store, outputDirectory: fixture.out) == [])
    }

    @Test(arguments: CatalogBackend.all) func aMissingIconIsReportedOnceAndTheRestIsBuilt(backend: CatalogBackend)
        throws
    {
        let fixture = try Fixture(backend: backend)
        try fixture.store.write { tx in
            var assets = try tx.assets()
            assets.ratingEmpty = fixture.workspace.path("icons/none.png")
            assets.ratingFull = fixture.workspace.path("icons/none.png")
            try tx.setAssets(assets)
        }
        let report = fixture.builder().build()
        #expect(report.failed == 1 && report.failures[0].hasPrefix(fixture.workspace.path("icons/none.png")))
        #expect(report.made == 2 * CatalogBuilderTests.bugOutputs + CatalogBuilderTests.foodOutputs)
    }
}
