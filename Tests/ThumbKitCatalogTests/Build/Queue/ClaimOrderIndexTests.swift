// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// A claim reads the queue through the index kept in its order (schema version 10), so it stops
/// at its limit instead of sorting the whole queue, on each backend. Claims run one at a time,
/// so a claim that sorted 20,000 rows bounded the fleet's throughput. A batch's fence finds its
/// rows by their key: it once scanned the whole queue for each batch.
struct ClaimOrderIndexTests {
    @Test(arguments: CatalogBackend.all) func aClaimReadsTheQueueThroughItsOrderIndex(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let queue = BuildQueue(store: store, maxAttempts: 3)
        try store.write { tx in
            for index in 0..<2_000 { try tx.addBug(title: "Bug \(index)") }
        }
        let now = CatalogValue.integer(Int(Date().timeIntervalSince1970 * 1000))
        let plan: [String] = try store.write { tx in
            switch queue.sql.claim {
            case .returning(let statement):
                try tx.db.execute("ANALYZE build_queue")
                return try tx.db.query(
                    "EXPLAIN " + statement, [.text("w"), now, now, .integer(3), now, .integer(4)]
                ) { $0.string(0) }
            case .selectThenUpdate(let select, _, _):
                return try tx.db.query("EXPLAIN QUERY PLAN " + select, [now, .integer(3), now, .integer(4)]) {
                    $0.string(3)
                }
            }
        }
        #expect(plan.contains { $0.contains("build_queue_claim_order") }, "\(plan.joined(separator: "\n"))")
        // Not a scan of the whole queue, nor a sort of it (the rows a PostgreSQL claim returns
        // are sorted again, at most its limit of them).
        #expect(
            !plan.contains { $0.contains("Seq Scan on build_queue q") || $0.contains("TEMP B-TREE FOR ORDER BY") },
            "\(plan.joined(separator: "\n"))")
    }

    /// PostgreSQL's batch fence, with a batch's 64 keys against 2,000 queued rows: each row is
    /// found by the primary key, not by a scan of the queue.
    @Test(.postgresCasesIncluded) func aBatchFenceFindsItsRowsByTheirKey() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let arrays = try #require(BuildQueue(store: store).sql.arrays)
        try store.write { tx in
            for index in 0..<2_000 { try tx.addBug(title: "Bug \(index)") }
        }
        let ids = Array(1...64)
        let values: [CatalogValue] = [
            CatalogDialect.postgres.wordList(ids.map { _ in "bug" }), CatalogDialect.postgres.integerList(ids),
            CatalogDialect.postgres.integerList(ids), .text("w"),
        ]
        let plan: [String] = try store.write { tx in
            try tx.db.execute("ANALYZE build_queue")
            return try tx.db.query("EXPLAIN " + arrays.fence, values) { $0.string(0) }
        }
        #expect(plan.contains { $0.contains("build_queue_pkey") }, "\(plan.joined(separator: "\n"))")
        #expect(!plan.contains { $0.contains("Seq Scan on build_queue") }, "\(plan.joined(separator: "\n"))")
    }
}
