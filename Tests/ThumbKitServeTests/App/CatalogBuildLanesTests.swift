// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitServe

/// The server's own build lanes: a change made through the app is built from the queue.
struct CatalogBuildLanesTests {
    @Test func aRatingChangedInTheAppIsBuiltByTheLanes() async throws {
        let fixture = try WebAppFixture()
        try fixture.workspace.addAssets(to: fixture.store)
        let out = fixture.workspace.path("out")
        let lanes = try CatalogBuildLanes(
            store: fixture.store, outputDirectory: out, lanes: 2, limits: ImageLimits(),
            poll: .seconds(600), log: { _ in })
        #expect(try lanes.start() == nil)
        let queue = BuildQueue(store: fixture.store)
        let store = fixture.store
        let bugID = fixture.bugID
        // A poll longer than the waits below: only the start, then a nudge, gets the lanes going.
        #expect(await Self.offPool { Self.waitUntil { (try? queue.entries().isEmpty) == true } })
        try store.write { try $0.rate(bugID: bugID, rating: 4) }
        lanes.nudge()
        let built = await Self.offPool {
            Self.waitUntil {
                let rows = (try? store.outputs(for: .bug(bugID))) ?? []
                return rows.contains { $0.kind == .rating && $0.path.contains("rating-4-stars") }
                    && (try? queue.entries().isEmpty) == true
            }
        }
        #expect(built)
        #expect(await Self.offPool { lanes.stop() })
        #expect(try consistencyProblems(store: store, outputDirectory: out).isEmpty)
    }

    /// Polls `condition` every 50 ms for up to 60 s (a blocking call).
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Runs `body` on a thread of its own and awaits it.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
