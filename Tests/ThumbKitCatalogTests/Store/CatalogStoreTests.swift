// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct CatalogStoreTests {
    @Test func aNewStoreIsInWALModeWithForeignKeysOnAtTheLatestVersion() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        #expect(try store.journalMode() == "wal")
        #expect(try store.foreignKeysEnabled())
        #expect(try store.schemaVersion() == CatalogStore.latestSchemaVersion)
        #expect(try store.quickCheck().isEmpty)
    }

    @Test func nothingButTheDatabaseAndItsWALFilesIsWrittenBesideIt() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        try store.write { try $0.addBug(title: "Potato Bug") }
        let names = try workspace.listing()
        #expect(names.contains("thumbkit.sqlite"))
        #expect(
            names.allSatisfy { ["thumbkit.sqlite", "thumbkit.sqlite-wal", "thumbkit.sqlite-shm"].contains($0) },
            "\(names)")
    }

    @Test func aTextFileInPlaceOfTheDatabaseIsReportedAsCorrupt() throws {
        let workspace = try TestWorkspace()
        let path = try workspace.write(
            "thumbkit.sqlite", text: "this is not a database, just some notes\n" + String(repeating: "x", count: 200))
        let error = catalogError { _ = try workspace.store() }
        guard case .corrupt(let errorPath, let reason) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(reason.contains("not a database"))
        #expect(try workspace.listing() == ["thumbkit.sqlite"])
    }

    @Test func aDamagedDatabaseIsAnErrorNotACrash() throws {
        let workspace = try TestWorkspace()
        do {
            let store = try workspace.store()
            try store.write { tx in
                for i in 0..<200 { try tx.addBug(title: "Bug \(i) " + String(repeating: "y", count: 100)) }
            }
            try store.write { _ in }
        }
        // Keep the header, overwrite the pages after it with garbage.
        let path = workspace.path("thumbkit.sqlite")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        for i in 4096..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = catalogError {
            let store = try workspace.store()
            _ = try store.bugs()
        }
        guard case .corrupt(_, let reason) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test func aMissingFolderIsAnOpenError() throws {
        let workspace = try TestWorkspace()
        let error = catalogError { _ = try CatalogStore(path: workspace.path("no/such/folder/db.sqlite")) }
        guard case .open(_, let reason) = error else {
            Issue.record("expected open, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("does not exist"))
    }

    @Test func aWriterBlockedByAnotherConnectionGetsLockedAfterTheBusyTimeout() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(busyTimeout: .milliseconds(150))
        try store.write { try $0.addBug(title: "Existing") }

        // A second, raw connection holds an exclusive write transaction.
        var other: OpaquePointer?
        #expect(sqlite3_open(workspace.path("thumbkit.sqlite"), &other) == SQLITE_OK)
        defer { sqlite3_close(other) }
        #expect(
            sqlite3_exec(other, "BEGIN EXCLUSIVE; INSERT INTO settings VALUES ('k', 'v')", nil, nil, nil) == SQLITE_OK)

        let started = Date()
        let error = catalogError { try store.write { try $0.addBug(title: "Blocked") } }
        let waited = Date().timeIntervalSince(started)
        guard case .locked(let path, _) = error else {
            Issue.record("expected locked, got \(String(describing: error))")
            return
        }
        #expect(path == workspace.path("thumbkit.sqlite"))
        #expect(waited >= 0.1)
        // WAL: reading still works while the other connection writes.
        #expect(try store.bugs().map(\.title) == ["Existing"])

        #expect(sqlite3_exec(other, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
        try store.write { try $0.addBug(title: "After") }
        #expect(try store.bugs().map(\.title) == ["Existing", "After"])
    }

    @Test(arguments: CatalogBackend.all) func twoStoresOnOneFileSeeEachOthersCommits(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let a = try workspace.store(backend: backend)
        let b = try workspace.store(busyTimeout: .milliseconds(100), backend: backend)
        try a.write { try $0.addBug(title: "From A") }
        #expect(try b.bugs().map(\.title) == ["From A"])
        let error = catalogError { try a.write { _ in try b.write { try $0.addBug(title: "From B") } } }
        if case .locked = error {} else { Issue.record("expected locked, got \(String(describing: error))") }
        // The refused write left nothing open on B's connection: its next write goes through.
        try b.write { try $0.addBug(title: "From B, later") }
        #expect(try a.bugs().map(\.title) == ["From A", "From B, later"])
    }

    @Test(arguments: CatalogBackend.all) func aFailingBlockRollsBackEveryChangeItMade(backend: CatalogBackend) throws {
        struct Boom: Error {}
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        #expect(throws: Boom.self) {
            try store.write { tx in
                try tx.addBug(title: "One")
                try tx.addCategory("Soup")
                throw Boom()
            }
        }
        #expect(try store.bugs().isEmpty)
        #expect(try store.categories().isEmpty)
    }

    @Test(arguments: CatalogBackend.all) func aConstraintFailureRollsBackEarlierChangesInTheTransaction(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let error = catalogError {
            try store.write { tx in
                try tx.addBug(title: "Kept only if all goes well")
                try tx.addFood(categoryID: 999, name: "Orphan", image: nil)
            }
        }
        guard case .constraint(_, let reason) = error else {
            Issue.record("expected constraint, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("foreign key"))
        #expect(try store.bugs().isEmpty)
    }

    @Test(arguments: CatalogBackend.all) func foreignKeysStopDeletingACategoryThatHasFoods(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        try store.write { tx in
            try tx.addCategory("Chicken")
            try tx.addFood(category: "Chicken", name: "Marsala", image: nil)
        }
        let error = catalogError { try store.write { try $0.deleteCategory(named: "Chicken") } }
        if case .constraint = error {} else { Issue.record("expected constraint, got \(String(describing: error))") }
        #expect(try store.categories().map(\.name) == ["Chicken"])
    }

    @Test(arguments: CatalogBackend.all) func aNestedWriteIsASavepointThatCanFailAlone(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        try store.write { tx in
            try tx.addBug(title: "Outer")
            _ = catalogError { try store.write { try $0.addBug(title: "Outer") } }  // duplicate: fails alone
            try store.write { try $0.addBug(title: "Inner") }
        }
        #expect(try store.bugs().map(\.title) == ["Outer", "Inner"])
    }

    @Test(arguments: CatalogBackend.all) func manyThreadsCanShareOneStore(backend: CatalogBackend) async throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask {
                    for j in 0..<10 { try store.write { try $0.addBug(title: "T\(i)-\(j)") } }
                    _ = try store.bugs()
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.bugs().count == 80)
    }

    @Test func aDatabaseFromANewerThumbkitIsRefused() throws {
        let workspace = try TestWorkspace()
        _ = try workspace.store()
        var raw: OpaquePointer?
        #expect(sqlite3_open(workspace.path("thumbkit.sqlite"), &raw) == SQLITE_OK)
        #expect(sqlite3_exec(raw, "PRAGMA user_version = 99", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(raw)
        let error = catalogError { _ = try workspace.store() }
        guard case .schema(_, let reason) = error else {
            Issue.record("expected schema, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("99"))
    }
}

/// Store behaviour both backends share, beyond `CatalogStoreTests`.
struct CatalogStoreBackendTests {
    @Test(arguments: CatalogBackend.all) func sqlInTitlesIsOnlyText(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let titles = ["'; DROP TABLE bugs; --", "Robert'); DELETE FROM bugs WHERE ('1' = '1", "? $1 ?2 $$ \\"]
        try store.write { tx in for title in titles { try tx.addBug(title: title) } }
        try store.write { tx in
            try tx.addCategory("'); DROP TABLE foods; --")
            try tx.addFood(category: "'); DROP TABLE foods; --", name: "$$; DELETE FROM foods; $$", image: nil)
            try tx.setSetting("x'; --", to: "'; DROP TABLE settings; --")
        }
        #expect(try store.bugs().map(\.title) == titles)
        #expect(try store.read { try $0.bug(title: titles[0]) }?.id == 1)
        #expect(try store.foods().map(\.name) == ["$$; DELETE FROM foods; $$"])
        #expect(try store.read { try $0.setting("x'; --") } == "'; DROP TABLE settings; --")
        #expect(try store.quickCheck() == [])
    }

    @Test(arguments: CatalogBackend.all) func deletingARecordDeletesItsOutputRows(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        try store.write { tx in
            let bug = try tx.addBug(title: "Gone")
            let kept = try tx.addBug(title: "Kept")
            for record in [bug.ref, kept.ref] {
                try tx.upsertOutput(
                    OutputValues(
                        record: record, recipe: "r", kind: .list, scale: 1, path: "bugs/\(record.id).png", width: 1,
                        height: 1, format: .png, bytes: 1, sourceSHA256: String(repeating: "0", count: 64)))
            }
            try tx.deleteBug(id: bug.id)
        }
        #expect(try store.read { try $0.outputs() }.map(\.record) == [.bug(2)])
    }

    @Test(arguments: CatalogBackend.all) func explicitIDsAreKeptAndLaterIDsFollowThem(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        try store.write { tx in
            try tx.addBug(title: "Forty", id: 40)
            #expect(try tx.addBug(title: "Next").id == 41)
            try tx.addCategory("C")
            try tx.addFood(category: "C", name: "Seven", image: nil, id: 7)
            #expect(try tx.addFood(category: "C", name: "Eight", image: nil).id == 8)
        }
        let summary = try store.summary()
        #expect(summary.bugCount == 2 && summary.ratings?.total == 0)
        let runs = try store.read { try $0.connection.queryFirst("SELECT COUNT(*) FROM bench_runs") { $0.int(0) } }
        #expect(runs == 0)
    }
}
