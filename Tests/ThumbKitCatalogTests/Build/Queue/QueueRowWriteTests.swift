// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The queue writes no row version it does not need: claims, renewals and releases change no
/// indexed column (schema version 11), so PostgreSQL can update those rows in place (HOT), and
/// planning leaves alone the rows that are already free and fresh.
struct QueueRowWriteTests {
    /// The columns a claim, a renewal, a release or a settle changes.
    static let changing = ["worker_id", "lease_until", "attempts", "claim_seq", "last_error"]

    @Test(arguments: CatalogBackend.all) func noIndexOfTheQueueCoversAColumnClaimsChange(backend: CatalogBackend) throws
    {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let definitions: [String] = try store.write { tx in
            switch tx.db.dialect {
            case .sqlite:
                return try tx.db.query(
                    "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'build_queue' AND sql IS NOT NULL"
                ) { $0.string(0) }
            case .postgres:
                return try tx.db.query(
                    "SELECT indexdef FROM pg_indexes WHERE tablename = 'build_queue' AND schemaname = current_schema()"
                ) { $0.string(0) }
            }
        }
        #expect(definitions.contains { $0.contains("build_queue_claim_order") })
        for definition in definitions {
            #expect(!Self.changing.contains { definition.contains($0) }, "\(definition)")
        }
    }

    /// Row versions written (inserted or updated) in `tx`'s transaction so far.
    static func written(_ tx: CatalogTransaction) throws -> Int {
        switch tx.db.dialect {
        case .sqlite:
            return try tx.db.queryFirst("SELECT total_changes()") { $0.int(0) } ?? 0
        case .postgres:
            return try tx.db.queryFirst(
                """
                SELECT pg_stat_get_xact_tuples_inserted('build_queue'::regclass)
                     + pg_stat_get_xact_tuples_updated('build_queue'::regclass)
                """
            ) { $0.int(0) } ?? 0
        }
    }

    @Test(arguments: CatalogBackend.all) func planningRewritesOnlyTheRowsItResets(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let queue = BuildQueue(store: store, maxAttempts: 3)
        let bugs = try store.write { tx in try (0..<40).map { try tx.addBug(title: "Bug \($0)").ref } }
        let now = Date()
        let nowMs = BuildQueue.millis(now)
        // Adding the bugs queued them, free and fresh: planning them all writes nothing.
        let untouched = try store.write { tx in
            let before = try Self.written(tx)
            try queue.plan(stale: bugs, current: [], now: now, in: tx)
            return try Self.written(tx) - before
        }
        #expect(untouched == 0)

        // One failed and waiting, one whose lease ran out, one held under a live lease.
        try store.write { tx in
            try tx.db.run(
                "UPDATE build_queue SET attempts = 2, last_error = 'broken', lease_until = ? WHERE record_id = ?",
                [.integer(Int(nowMs) + 60_000), .integer(bugs[0].id)])
            try tx.db.run(
                "UPDATE build_queue SET worker_id = 'gone', lease_until = ?, attempts = 1 WHERE record_id = ?",
                [.integer(Int(nowMs) - 1_000), .integer(bugs[1].id)])
            try tx.db.run(
                "UPDATE build_queue SET worker_id = 'busy', lease_until = ?, attempts = 1 WHERE record_id = ?",
                [.integer(Int(nowMs) + 60_000), .integer(bugs[2].id)])
        }
        let reset = try store.write { tx in
            let before = try Self.written(tx)
            try queue.plan(stale: bugs, current: [], now: now, in: tx)
            return try Self.written(tx) - before
        }
        #expect(reset == 2)
        let entries = Dictionary(uniqueKeysWithValues: try queue.entries().map { ($0.record, $0) })
        #expect(entries.count == bugs.count)
        for bug in [bugs[0], bugs[1]] {
            let entry = try #require(entries[bug])
            #expect(entry.workerID == nil && entry.leaseUntil == nil && entry.attempts == 0 && entry.lastError == nil)
        }
        let busy = try #require(entries[bugs[2]])
        #expect(busy.workerID == "busy" && busy.attempts == 1)
    }
}
