// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The PostgreSQL worker's wake source: woken by the NOTIFY of a committed change to its own
/// catalog only, and again after its connection was killed.
@Suite(.enabled(if: CatalogBackend.postgresEnabled, "needs PostgreSQL (THUMBKIT_TEST_POSTGRES_URL)"))
struct PostgresWakeSourceTests {
    /// How long `wake.wait(timeout:)` took.
    static func waited(_ wake: PostgresWakeSource, _ timeout: Duration) -> Duration {
        let start = ContinuousClock.now
        wake.wait(timeout: timeout)
        return ContinuousClock.now - start
    }

    @Test func aCommittedChangeWakesItButARollbackAClaimOrAnotherCatalogDoNot() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let other = try workspace.store("other", backend: .postgres)
        let wake = try PostgresWakeSource(store: store)
        defer { wake.interrupt() }
        let quiet = Duration.milliseconds(300)

        #expect(Self.waited(wake, quiet) >= .milliseconds(290))
        try other.write { tx in try tx.addBug(title: "Elsewhere") }
        #expect(Self.waited(wake, quiet) >= .milliseconds(290), "another schema's catalog woke it")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write { tx in
                try tx.addBug(title: "Rolled back")
                throw Abort()
            }
        }
        #expect(Self.waited(wake, quiet) >= .milliseconds(290), "a rolled-back change woke it")

        try store.write { tx in try tx.addBug(title: "Queued") }
        #expect(Self.waited(wake, .seconds(10)) < .seconds(2))
        _ = try BuildQueue(store: store).claim(worker: "a", limit: 5, lease: .seconds(30), now: Date())
        #expect(Self.waited(wake, quiet) >= .milliseconds(290), "a claim woke it")
    }

    @Test func afterItsConnectionIsKilledItReconnectsSaysSoAndWakesAgain() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let lines = Locked([String]())
        let wake = try PostgresWakeSource(store: store) { line in lines.withLock { $0.append(line) } }
        defer { wake.interrupt() }

        let killed = try store.read { tx in
            try tx.db.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE ?",
                [.text("LISTEN %\(wake.channel)%")]
            ) { $0.string(0) }
        }
        #expect(killed.count == 1)
        // Back, it wakes the worker once (notifications sent meanwhile are lost)…
        #expect(Self.waited(wake, .seconds(10)) < .seconds(5))
        let said = lines.withLock { $0 }
        #expect(said.count == 2 && said.first?.contains("reconnecting in 0.5 s (attempt 1)") == true, "\(said)")
        // …and listens again.
        try store.write { tx in try tx.addBug(title: "After") }
        #expect(Self.waited(wake, .seconds(10)) < .seconds(2))
    }
}
