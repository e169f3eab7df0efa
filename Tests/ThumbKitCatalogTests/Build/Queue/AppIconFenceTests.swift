// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The icon set's `Contents.json`, the one output whose name carries no content tag: a worker
/// whose claim on the `app` entry was lost must never write it, and a stale one is never taken
/// for current, on each backend.
struct AppIconFenceTests {
    /// A catalog whose logo is `logo1.png` (its setting queues the `app` entry), and a second
    /// logo to change to.
    struct Fixture {
        let workspace: TestWorkspace
        let store: CatalogStore
        let out: String
        let logos: [String]

        init(_ backend: CatalogBackend) throws {
            workspace = try TestWorkspace()
            store = try workspace.store(backend: backend)
            out = workspace.path("out")
            logos = [
                try workspace.image("logo1.png", width: 40, height: 40, seed: 9),
                try workspace.image("logo2.png", width: 40, height: 40, seed: 5),
            ]
            try setLogo(logos[0])
        }

        func setLogo(_ path: String) throws {
            try store.write { tx in
                var assets = try tx.assets()
                assets.logo = path
                try tx.setAssets(assets)
            }
        }

        var contents: Data? { FileManager.default.contents(atPath: out + "/" + AppIcon.contentsPath) }

        /// The file names `Contents.json` lists that are not in the icon set's folder.
        func missingIcons() throws -> [String] {
            let data = try #require(contents)
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let images = try #require(json["images"] as? [[String: String]])
            #expect(images.count == AppIcon.entries.count)
            return images.compactMap { $0["filename"] }.filter {
                !FileManager.default.fileExists(atPath: out + "/" + AppIcon.folder + "/" + $0)
            }
        }

        func builder(_ store: CatalogStore? = nil) -> CatalogBuilder {
            CatalogBuilder(store: store ?? self.store, outputDirectory: out, jobs: 1)
        }
    }

    @Test(arguments: CatalogBackend.all)
    func aWorkerThatLostTheAppEntryNeverWritesContentsJSONOverTheNewOwners(backend: CatalogBackend) throws {
        let f = try Fixture(backend)
        let clock = FakeBuildClock(Date())
        let queue = BuildQueue(store: f.store)
        // Worker A claims the app entry and plans it with the first logo…
        let claims = try queue.claim(worker: "A", limit: 1, lease: .seconds(30), now: clock.now())
        #expect(claims.map(\.record) == [.app])
        let planned = BuildPlanner(recipes: .defaults, icons: nil, iconsUnavailable: false, halfGiven: false)
            .appUnit(full: true, logo: .success(try ImageRef.load(path: f.logos[0])))
        // …then stalls past its lease (SIGSTOP). The logo changes, and worker B builds and
        // commits the new icon set.
        clock.advance(60)
        try f.setLogo(f.logos[1])
        let other = try CatalogStore(location: f.store.location)
        let b = try BuildWorker(
            builder: f.builder(other), queue: BuildQueue(store: other), id: "B", clock: clock
        ).drain(idle: .milliseconds(10))
        #expect(b.failures == [] && b.made == AppIcon.files.count)
        let owners = try #require(f.contents)
        #expect(try f.missingIcons() == [])

        // A resumes: it makes the old logo's icons, but its commit is refused; it never touches
        // Contents.json, and removes the icons it made, which no row describes.
        let resumed = try #require(
            UnitBuild(
                unit: planned, rows: [], folder: OutputFolder(root: f.out), store: f.store,
                style: RecipeBook.defaults.ratingStrip, limits: ImageLimits(), threads: 1,
                commitGuard: BuildCommitGuard(
                    check: { tx, _ in try queue.check(claims[0], worker: "A", in: tx) },
                    finish: { _, record, _, _ in Issue.record("\(record): a lost claim was settled") })
            ).run())
        #expect(resumed.made == 0 && resumed.failures.count == 1 && resumed.failures[0].contains("was lost"))
        #expect(f.contents == owners)
        #expect(try f.missingIcons() == [])
        let icons = OutputFolder(root: f.out).files(in: [AppIcon.folder], includeHidden: true)
        #expect(icons.count == AppIcon.files.count + 1, "\(icons)")

        // The next full build finds nothing to sweep; the set still names only icons that
        // exist, and the build after that has nothing to do.
        let full = f.builder().build()
        #expect(full.failures == [] && full.made == 0 && full.removed == 0)
        #expect(try f.missingIcons() == [])
        #expect(try consistencyProblems(store: f.store, outputDirectory: f.out) == [])
        #expect(f.builder().build().made == 0)
    }

    @Test(arguments: CatalogBackend.all)
    func aStaleContentsJSONIsNotUpToDateAndTheNextBuildRepairsIt(backend: CatalogBackend) throws {
        let f = try Fixture(backend)
        #expect(f.builder().build().failures == [])
        let good = try #require(f.contents)
        // What a lost worker left before the fence covered it: the names of another logo's icons.
        let stale = try #require(
            BuildUnit.iconContents(BuildPlanner.iconOutputs(sha256: String(repeating: "0", count: 64))))
        try stale.write(to: URL(fileURLWithPath: f.out + "/" + AppIcon.contentsPath))
        #expect(Set(try f.missingIcons()).count == AppIcon.files.count)

        // The planning pass queues the app entry, and a worker repairs the file.
        let queue = BuildQueue(store: f.store)
        let plan = try f.builder().planQueue(queue, now: Date())
        #expect(plan.queued == [.app])
        let report = try BuildWorker(builder: f.builder(), queue: queue, id: "w").drain(idle: .milliseconds(10))
        #expect(report.failures == [] && report.made == 0)
        #expect(f.contents == good)
        #expect(try queue.entries() == [])

        // A plain full build does the same, and then finds everything current.
        try stale.write(to: URL(fileURLWithPath: f.out + "/" + AppIcon.contentsPath))
        let again = f.builder().build()
        #expect(again.failures == [] && again.made == 0 && again.upToDate == AppIcon.files.count)
        #expect(f.contents == good)
        let last = try f.builder().planQueue(queue, now: Date())
        #expect(last.queued == [], "\(last)")
    }
}
