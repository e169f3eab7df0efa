// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// `CatalogStore.close()`, which every command calls before it returns: a reference to the
/// store that outlives the command (a thread still winding down) can no longer write to the
/// catalog, not even the checkpoint SQLite writes when its last connection closes.
struct CatalogCloseTests {
    /// The failure this guards against: a catalog truncated to 0 bytes after a build got 36
    /// pages written into it, as a connection closed late checkpointed its (deleted) log.
    @Test func aClosedStoreWritesNothingThroughAReferenceThatOutlivesIt() throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("thumbkit.sqlite")
        var late: CatalogStore? = try workspace.store()
        try late?.write { tx in
            for i in 0..<50 { try tx.addBug(title: "Bug \(i) " + String(repeating: "y", count: 200)) }
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let store = try #require(late)
        store.close()
        // Closed for real: SQLite's last connection checkpointed and removed its log.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        try Data().write(to: URL(fileURLWithPath: path))
        #expect(throws: CatalogError.self) { try late?.write { try $0.addBug(title: "Late Bug") } }
        #expect(throws: CatalogError.self) { try late?.read { try $0.bugs() } }
        store.close()
        late = nil
        #expect(FileManager.default.contents(atPath: path) == Data())
        #expect(try workspace.listing() == ["thumbkit.sqlite"])
    }

    /// Closing waits for a transaction another thread is running; that transaction commits.
    @Test func closeWaitsForTheTransactionInHandAndKeepsIt() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let inside = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        done.enter()
        Thread.detachNewThread {
            defer { done.leave() }
            try? store.write { tx in
                inside.signal()
                Thread.sleep(forTimeInterval: 0.3)
                try tx.addBug(title: "Committed Bug")
            }
        }
        inside.wait()
        store.close()
        done.wait()
        let reopened = try workspace.store()
        #expect(try reopened.read { try $0.bugs() }.map(\.title) == ["Committed Bug"])
    }

    @Test(arguments: CatalogBackend.all)
    func everyUseAfterCloseFailsAndClosingTwiceDoesNothing(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        try store.write { try $0.addBug(title: "Bug") }
        store.close()
        store.close()
        #expect(throws: CatalogError.self) { try store.read { try $0.bugs() } }
        #expect(throws: CatalogError.self) { try store.schemaVersion() }
        #expect(!store.willReconnect)
        #expect(store.connectionLosses == 0)
        let reopened = try workspace.store(backend: backend)
        #expect(try reopened.read { try $0.bugs() }.map(\.title) == ["Bug"])
    }
}
