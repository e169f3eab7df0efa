// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// `limitIdleTransactions`: the session's `idle_in_transaction_session_timeout`, set again
/// after the connection was dropped and reopened.
@Suite(.enabled(if: CatalogBackend.postgresEnabled, "needs PostgreSQL (THUMBKIT_TEST_POSTGRES_URL)"))
struct IdleTransactionLimitTests {
    static func setting(_ store: CatalogStore) throws -> String? {
        try store.read { tx in try tx.db.queryFirst("SHOW idle_in_transaction_session_timeout") { $0.string(0) } }
    }

    @Test func theLimitIsSetAndSurvivesAReconnection() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let interactive = try workspace.store(backend: .postgres)
        guard case .postgres(let url) = store.location else { return }
        store.reconnect(with: PostgresReconnection(timeout: .seconds(30)))
        try store.limitIdleTransactions(to: .seconds(60))
        #expect(try Self.setting(store) == "1min")
        #expect(try Self.setting(interactive) == "0", "another store's session changed")

        let pid = try store.read { tx in try tx.db.queryFirst("SELECT pg_backend_pid()") { $0.int(0) } } ?? 0
        try PostgresAdmin.execute("SELECT pg_terminate_backend(\(pid), 5000)", url: url)
        // The next transaction finds the connection lost and reopens it, with the limit again.
        #expect(try Self.setting(store) == "1min")
        let newPID = try store.read { tx in try tx.db.queryFirst("SELECT pg_backend_pid()") { $0.int(0) } } ?? 0
        #expect(newPID != pid)
    }
}
