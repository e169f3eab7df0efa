// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// A connection to the test cluster working in a schema of its own (so tests running at once
/// never see each other's tables), dropped afterwards.
enum PostgresFixture {
    /// Runs `body` with a connection whose `search_path` is a fresh schema; nil (and a notice,
    /// or a failure under CI) when no cluster is configured.
    static func withSchema(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: (PostgresConnection, Scratch) throws -> Void
    ) throws {
        guard let url = TestPostgres.requireURL(sourceLocation: sourceLocation) else { return }
        let db = try PostgresConnection(url: url)
        let scratch = Scratch(url: url, schema: TestPostgres.uniqueName("tk_test_"))
        try db.execute("CREATE SCHEMA \(scratch.schema); SET search_path TO \(scratch.schema)")
        defer { try? db.execute("DROP SCHEMA \(scratch.schema) CASCADE") }
        try body(db, scratch)
    }

    /// Where a test works: the cluster URL and its schema.
    struct Scratch: Sendable {
        let url: String
        let schema: String

        /// Another connection in the same schema.
        func connect(lockTimeoutMilliseconds: Int = 5000) throws -> PostgresConnection {
            let db = try PostgresConnection(url: url, lockTimeoutMilliseconds: lockTimeoutMilliseconds)
            try db.execute("SET search_path TO \(schema)")
            return db
        }
    }
}
