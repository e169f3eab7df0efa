// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// `CatalogStore.sibling()`, the connection of its own each lane of a PostgreSQL worker gets:
/// another session that behaves as the first (reconnection, session settings, observer).
@Suite(.enabled(if: CatalogBackend.postgresEnabled, "needs PostgreSQL (THUMBKIT_TEST_POSTGRES_URL)"))
struct SiblingStoreTests {
    /// Counts the write transactions a store committed.
    final class Commits: WriteTransactionObserver {
        let count = Locked(0)
        func writeLockTaken(after wait: Duration) {}
        func writeCommitted() { count.withLock { $0 += 1 } }
    }

    static func pid(_ store: CatalogStore) throws -> Int {
        try store.read { tx in try tx.db.queryFirst("SELECT pg_backend_pid()") { $0.int(0) } } ?? 0
    }

    @Test func aSiblingIsAnotherSessionWithTheSameSettingsReconnectionAndObserver() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        guard case .postgres(let url) = store.location else { return }
        store.reconnect(with: PostgresReconnection(timeout: .seconds(30)))
        try store.limitIdleTransactions(to: .seconds(60))
        let commits = Commits()
        store.observeWrites(commits)

        let sibling = try store.sibling()
        defer { sibling.close() }
        #expect(try Self.pid(sibling) != Self.pid(store))
        #expect(try IdleTransactionLimitTests.setting(sibling) == "1min")
        try sibling.write { try $0.addBug(title: "From The Sibling") }
        #expect(commits.count.withLock { $0 } == 1)
        #expect(try store.read { try $0.bugs() }.map(\.title) == ["From The Sibling"])
        // Its connection dropped, it reconnects (the policy came along) with the limit again.
        try PostgresAdmin.execute("SELECT pg_terminate_backend(\(try Self.pid(sibling)), 5000)", url: url)
        #expect(try IdleTransactionLimitTests.setting(sibling) == "1min")
        #expect(sibling.connectionLosses == 1)
        #expect(store.connectionLosses == 0)
    }

    /// Counts, at each claim, the sessions named `name` (`application_name`).
    final class SessionCount: BuildCrashPoints {
        let sessions: CatalogStore
        let name: String
        let most = Locked(0)

        init(sessions: CatalogStore, name: String) {
            (self.sessions, self.name) = (sessions, name)
        }

        func count() -> Int {
            let count = try? sessions.read { tx in
                try tx.db.queryFirst(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = ?", [.text(name)]
                ) { $0.int(0) }
            }
            return (count ?? nil) ?? -1
        }

        /// Whether the count comes to `expected` within ten seconds (polled).
        func settles(at expected: Int) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while count() != expected {
                if Date() > deadline { return false }
                Thread.sleep(forTimeInterval: 0.01)  // polling a condition, not timing anything
            }
            return true
        }

        func reached(_ point: BuildCrashPoint, records: [RecordRef]) {
            let now = count()
            most.withLock { $0 = max($0, now) }
        }
    }

    /// A worker with three lanes on PostgreSQL drains with a session per lane, and closes the
    /// lanes' own sessions when it ends.
    @Test func aDrainInLanesUsesASessionPerLaneAndClosesThem() throws {
        let fixture = try BuildFixture(backend: .postgres)
        guard case .postgres(let url) = fixture.store.location else { return }
        let name = "thumbkit-lanes-\(UInt32.random(in: 0...UInt32.max))"
        let named = try CatalogStore(location: .postgres(url: url + "&application_name=" + name), mustExist: true)
        let builder = CatalogBuilder(store: named, outputDirectory: fixture.out, recipes: .defaults, jobs: 3)
        let queue = BuildQueue(store: named)
        let plan = try builder.planQueue(queue, now: Date())
        #expect(plan.queued.count == 4)
        let counter = SessionCount(sessions: fixture.store, name: name)
        let worker = BuildWorker(
            builder: builder, queue: queue, options: .init(lease: .seconds(30), batch: 1), crashPoints: counter)
        let report = try worker.drain(idle: .milliseconds(20))
        #expect(report.failed == 0 && report.made > 0)
        #expect(counter.most.withLock { $0 } == 3)
        // A closed session's server process ends a moment after the client let go.
        #expect(counter.settles(at: 1))
        named.close()
        #expect(counter.settles(at: 0))
    }
}
