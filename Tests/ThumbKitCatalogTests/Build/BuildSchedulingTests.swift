// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// The build hands records to its workers as `thumb` hands out files (`BatchScheduler`):
/// largest source first, and never two memory-heavy decodes at once (issue 13: one scheduler
/// for heavy decodes).
struct BuildSchedulingTests {
    /// A 2048² progressive 4:4:4 JPEG: the bug recipes' detail image needs it at 5/8, where
    /// libjpeg holds the whole coefficient buffer (25 MB), over `BatchScheduler.heavyBytes`.
    static func heavyJPEG(seed: Int) throws -> [UInt8] {
        try ImageEncoders.encode(
            GeneratedImages.pixels(width: 2048, height: 2048, seed: seed),
            options: EncodeOptions(format: .jpeg, quality: 80, subsampling: .yuv444, progressive: true),
            path: "heavy.jpg")
    }

    /// A catalog of bugs: `heavy` heavy pictures, then `light` small ones.
    static func catalog(heavy: Int, light: Int) throws -> BuildFixture {
        let fixture = try BuildFixture()
        try fixture.store.write { tx in
            for i in 0..<heavy {
                let path = try fixture.workspace.write("img/heavy-\(i).jpg", try heavyJPEG(seed: 40 + i))
                try tx.addBug(title: "Heavy \(i)", image: try ImageRef.load(path: path))
            }
            for i in 0..<light {
                let path = try fixture.workspace.image("img/light-\(i).jpg", seed: 60 + i, format: .jpeg)
                try tx.addBug(title: "Light \(i)", image: try ImageRef.load(path: path))
            }
        }
        return fixture
    }

    static func bugVariants() -> [ResizeOptions] {
        RecipeBook.defaults.recipes(for: .bug).flatMap(\.variants)
    }

    @Test func theTestPictureIsHeavyForTheBugRecipes() throws {
        let source = try ImageSource(try Self.heavyJPEG(seed: 1), path: "heavy.jpg")
        let estimate = Thumbnailer.decodeMemoryEstimate(
            source, variants: Self.bugVariants(), decode: DecodeOptions())
        #expect(estimate >= BatchScheduler.heavyBytes)
    }

    /// Heavy records put back while another heavy decode runs are all built in the end, and
    /// the files are the bytes one worker makes.
    @Test func heavyRecordsOnTwoWorkersAreAllBuiltAsOneWorkerBuildsThem() throws {
        let two = try Self.catalog(heavy: 3, light: 3)
        let report = two.builder(jobs: 2).build()
        #expect(report.failed == 0, "\(report.failures)")
        let one = try Self.catalog(heavy: 3, light: 3)
        #expect(one.builder(jobs: 1).build().failed == 0)
        #expect(two.files() == one.files())
        for file in two.files() {
            let a = try Data(contentsOf: URL(fileURLWithPath: two.out + "/" + file))
            let b = try Data(contentsOf: URL(fileURLWithPath: one.out + "/" + file))
            #expect(a == b, "\(file)")
        }
        for bug in try two.store.bugs() { #expect(!(try two.rows(bug.ref)).isEmpty, "\(bug.title)") }
        #expect(two.builder(jobs: 2).build().made == 0)
    }

    /// One unit, built while the heavy slot is taken and other records wait: a heavy source
    /// puts the unit back having written nothing; a light one is built at once.
    @Test func aUnitWithAHeavyDecodeIsPutBackWhileAnotherIsInFlight() throws {
        let fixture = try Self.catalog(heavy: 1, light: 1)
        var folder = OutputFolder(root: fixture.out)
        try folder.create()
        let snapshot = try fixture.store.read { try BuildSnapshot.all($0) }
        let planner = BuildPlanner(recipes: .defaults, icons: nil, iconsUnavailable: false, halfGiven: false)
        func unitBuild(_ title: String, _ scheduler: BatchScheduler) throws -> UnitBuild {
            let bug = try #require(snapshot.bugs.first { $0.title == title })
            return UnitBuild(
                unit: planner.unit(for: bug), rows: [], folder: folder, store: fixture.store,
                style: RecipeBook.defaults.ratingStrip, limits: ImageLimits(), threads: 1, scheduler: (scheduler, 1))
        }
        let scheduler = BatchScheduler(order: [0, 1, 2])
        #expect(scheduler.take() == 0)
        #expect(scheduler.claimHeavy(0))  // another record's heavy decode is in flight
        #expect(scheduler.take() == 1)
        #expect(try unitBuild("Heavy 0", scheduler).run() == nil)
        #expect(fixture.files().isEmpty)
        let light = try #require(try unitBuild("Light 0", scheduler).run())
        #expect(light.failed == 0 && light.made > 0, "\(light.failures)")
        scheduler.releaseHeavy()
        #expect(scheduler.take() == 1)  // the put-back record comes first
        let heavy = try #require(try unitBuild("Heavy 0", scheduler).run())
        #expect(heavy.failed == 0 && heavy.made > 0, "\(heavy.failures)")
    }
}
