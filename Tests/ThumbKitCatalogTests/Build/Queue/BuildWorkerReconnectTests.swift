// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// A PostgreSQL catalog's connection dropped under a builder (`pg_terminate_backend`, as a
/// server restart or an idle-connection killer does): the builder reconnects and finishes; a
/// connection that does not come back within the reconnect timeout is given up in one line.
struct BuildWorkerReconnectTests {
    /// Terminates the backend of `store`'s connection each time a batch has been claimed (the
    /// worker's connection is idle then, as it is while it builds), `times` times.
    final class Terminator: BuildCrashPoints {
        let store: CatalogStore
        let admin: String
        let left: Locked<Int>
        let terminated = Locked(0)

        init(store: CatalogStore, admin: String, times: Int) {
            self.store = store
            self.admin = admin
            self.left = Locked(times)
        }

        func reached(_ point: BuildCrashPoint, records: [RecordRef]) {
            guard point == .claimed else { return }
            let due = left.withLock { n -> Bool in
                guard n > 0 else { return false }
                n -= 1
                return true
            }
            guard due else { return }
            do {
                let pid = try store.read { try $0.connection.queryFirst("SELECT pg_backend_pid()") { $0.int(0) } } ?? 0
                // Waits (up to 5 s) until the backend has really gone.
                try PostgresAdmin.execute("SELECT pg_terminate_backend(\(pid), 5000)", url: admin)
                terminated.withLock { $0 += 1 }
            } catch {
                Issue.record("terminating: \(error)")
            }
        }
    }

    /// A catalog of `bugs` bugs and a food, queued, with reconnection on.
    private func queuedCatalog(_ workspace: TestWorkspace, bugs: Int, log: Locked<[String]>) throws -> CatalogStore {
        let store = try BuildWorkerTests.catalog(workspace, "c", bugs: bugs, backend: .postgres)
        store.reconnect(
            with: PostgresReconnection(timeout: .seconds(30), log: { line in log.withLock { $0.append(line) } }))
        _ = try CatalogBuilder(store: store, outputDirectory: workspace.path("out"), recipes: BuildWorkerTests.recipes)
            .planQueue(BuildQueue(store: store), now: Date())
        return store
    }

    @Test func aBuildWhoseConnectionIsTerminatedTwiceReconnectsAndFinishes() throws {
        guard let admin = TestPostgres.requireURL() else { return }
        let workspace = try TestWorkspace()
        let log = Locked([String]())
        let store = try queuedCatalog(workspace, bugs: 4, log: log)
        let terminator = Terminator(store: store, admin: admin, times: 2)
        let worker = BuildWorker(
            builder: CatalogBuilder(
                store: store, outputDirectory: workspace.path("out"), recipes: BuildWorkerTests.recipes, jobs: 1),
            queue: BuildQueue(store: store), options: .init(lease: .seconds(30), batch: 2), crashPoints: terminator)
        var events: [BuildWorker.Event] = []
        let report = try worker.drain(idle: .milliseconds(20), onEvent: { events.append($0) })
        #expect(terminator.terminated.withLock { $0 } == 2)
        #expect(report.failed == 0, "\(report.failures)")
        #expect(report.made > 0)
        #expect(events.allSatisfy { $0.status == .built } && events.count == 6, "\(events)")
        #expect(try BuildQueue(store: store).entries() == [])
        #expect(try consistencyProblems(store: store, outputDirectory: workspace.path("out")) == [])
        #expect(log.withLock { $0 }.filter { $0.hasSuffix("connection back after 1 attempt(s)") }.count == 2)
    }

    @Test func aWorkerWhoseConnectionIsTerminatedReconnectsAndServesOn() throws {
        guard let admin = TestPostgres.requireURL() else { return }
        let workspace = try TestWorkspace()
        let log = Locked([String]())
        let store = try queuedCatalog(workspace, bugs: 3, log: log)
        let terminator = Terminator(store: store, admin: admin, times: 1)
        let worker = BuildWorker(
            builder: CatalogBuilder(
                store: store, outputDirectory: workspace.path("out"), recipes: BuildWorkerTests.recipes, jobs: 1),
            queue: BuildQueue(store: store), options: .init(lease: .seconds(30), batch: 1), crashPoints: terminator)
        var events: [BuildWorker.Event] = []
        let report = try worker.serve(
            wake: PollingWakeSource(), poll: .milliseconds(10), shouldStop: { events.count == 5 },
            onEvent: { events.append($0) })
        #expect(terminator.terminated.withLock { $0 } == 1)
        #expect(report.failed == 0)
        #expect(events.allSatisfy { $0.status == .built })
        #expect(try BuildQueue(store: store).entries() == [])
    }

    /// A fake clock: `sleep` only moves `now` on, and records each wait.
    final class FakeClock: ReconnectClock {
        let start = ContinuousClock.now
        let slept = Locked([Duration]())
        func now() -> ContinuousClock.Instant { start + slept.withLock { $0.reduce(.zero, +) } }
        func sleep(_ duration: Duration) { slept.withLock { $0.append(duration) } }
    }

    @Test func aConnectionThatDoesNotComeBackIsGivenUpAfterTheTimeoutInOneLine() throws {
        guard let admin = TestPostgres.requireURL() else { return }
        let role = TestPostgres.uniqueName("tk_gone_")
        try PostgresAdmin.execute("CREATE ROLE \(role) LOGIN", url: admin)
        defer { try? PostgresAdmin.execute("DROP ROLE \(role)", url: admin) }
        let db = try PostgresConnection(url: TestPostgres.url(admin, user: role))
        let clock = FakeClock()
        let log = Locked([String]())
        db.reconnection = PostgresReconnection(
            timeout: .seconds(60), log: { line in log.withLock { $0.append(line) } }, clock: clock)
        // The server drops the connection, and the role may no longer log in: no reconnect works.
        try PostgresAdmin.execute(
            "ALTER ROLE \(role) NOLOGIN; SELECT pg_terminate_backend(\(db.backendPID), 5000)", url: admin)

        var thrown: CatalogError?
        do { try db.transaction(write: false) { _ = try db.queryFirst("SELECT 1") { $0.int(0) } } } catch {
            thrown = error as? CatalogError
        }
        let error = try #require(thrown)
        guard case .open(_, let reason) = error else { throw error }
        #expect(reason.hasPrefix("connection lost, and not back within the reconnect timeout (60 s): "), "\(reason)")
        #expect(reason.contains("not permitted to log in"), "\(reason)")
        #expect(!error.description.contains("\n"))
        let waits: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)]
        #expect(clock.slept.withLock { $0 } == waits + [.milliseconds(28_500)])
        #expect(log.withLock { $0.count } == 7)
        // Given up for good: the next transaction fails at once, with the same line.
        #expect(throws: error) { try db.transaction(write: false) {} }
        #expect(clock.slept.withLock { $0.count } == 7)
    }
}
