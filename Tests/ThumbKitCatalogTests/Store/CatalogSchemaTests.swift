// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct CatalogSchemaTests {
    @Test func aFreshDatabaseGetsTheLatestUserVersionAndEveryTable() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        #expect(try store.schemaVersion() == CatalogSchema.migrations.count)
        let tables = try store.read { tx in
            try tx.connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                $0.string(0)
            }
        }
        #expect(
            tables == [
                "bench_results", "bench_runs", "bugs", "build_claim_sequence", "build_planning", "build_queue",
                "categories", "foods",
                "ingested_files",
                "outputs",
                "settings",
            ])
    }

    @Test func aVersionOneDatabaseIsMigratedForwardKeepingItsRecords() throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("thumbkit.sqlite")
        do {
            let old = try CatalogStore(path: path, busyTimeout: .seconds(1), schemaVersion: 1)
            #expect(try old.schemaVersion() == 1)
            try old.write { try $0.addBug(title: "Old Bug", rating: Rating(exactly: 2.5)!) }
            let hasBench = try old.read { tx in
                try tx.connection.queryFirst("SELECT COUNT(*) FROM sqlite_master WHERE name = 'bench_runs'") {
                    $0.int(0)
                }
            }
            #expect(hasBench == 0)
        }
        let store = try CatalogStore(path: path)
        #expect(try store.schemaVersion() == CatalogStore.latestSchemaVersion)
        #expect(try store.bugs().map(\.title) == ["Old Bug"])
        #expect(try store.bugs().first?.rating.value == 2.5)
        // The old benchmark tables (migrations 2 and 3) are made and take rows.
        let runs = try store.write { tx in
            try tx.connection.run(
                "INSERT INTO bench_runs (date, git_commit, machine) VALUES (?, ?, ?)",
                [.text("2026-01-05T12:00:00.000Z"), .text("abc"), .text("test")])
            return try tx.connection.queryFirst("SELECT COUNT(*) FROM bench_runs") { $0.int(0) }
        }
        #expect(runs == 1)
    }

    @Test func aFailedMigrationLeavesTheOldVersion() throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("thumbkit.sqlite")
        _ = try CatalogStore(path: path, busyTimeout: .seconds(1), schemaVersion: 1)
        // A table that migration 2 wants to create already exists.
        var raw: OpaquePointer?
        #expect(sqlite3_open(path, &raw) == SQLITE_OK)
        #expect(sqlite3_exec(raw, "CREATE TABLE ingested_files (x)", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(raw)
        let error = catalogError { _ = try CatalogStore(path: path) }
        guard case .schema(_, let reason) = error else {
            Issue.record("expected schema, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("migration to version 2"))
        let old = try CatalogStore(path: path, busyTimeout: .seconds(1), schemaVersion: 1)
        #expect(try old.schemaVersion() == 1)
        let benchTables = try old.read { tx in
            try tx.connection.queryFirst("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'bench_%'") { $0.int(0) }
        }
        #expect(benchTables == 0)
    }

    @Test func theRatingCheckConstraintGuardsTheColumnItself() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let error = catalogError {
            try store.write { tx in
                try tx.connection.run(
                    "INSERT INTO bugs (title, rating, created_at, updated_at) VALUES ('x', 3.3, '', '')")
            }
        }
        if case .constraint = error {} else { Issue.record("expected constraint, got \(String(describing: error))") }
    }
}
