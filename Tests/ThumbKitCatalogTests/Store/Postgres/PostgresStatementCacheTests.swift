// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// `PostgresConnection` prepares a statement the second time it runs: a prepared statement must
/// answer exactly as one sent whole, whatever happened to the session or the schema.
@Suite(.enabled(if: CatalogBackend.postgresEnabled, "THUMBKIT_TEST_POSTGRES_URL is not set"))
struct PostgresStatementCacheTests {
    @Test func aStatementIsPreparedOnItsSecondRunAndTakesNewValuesEachTime() throws {
        try PostgresFixture.withSchema { db, _ in
            try db.execute("CREATE TABLE t (k TEXT COLLATE \"C\" UNIQUE, v BIGINT)")
            let insert = "INSERT INTO t (k, v) VALUES (?, ?)"
            try db.run(insert, [.text("a"), .integer(1)])
            #expect(db.statements.count == 0)
            try db.run(insert, [.text("b"), .integer(2)])
            #expect(db.statements.count == 1)
            try db.run(insert, [.text("c"), .integer(3)])
            // NULL is another parameter type: another statement, with the right answer.
            try db.run(insert, [.text("d"), .null])
            try db.run(insert, [.text("e"), .null])
            #expect(db.statements.count == 2)
            let select = "SELECT v FROM t WHERE k = ?"
            let found = try ["a", "b", "c", "d", "zz"].map { k in
                try db.queryFirst(select, [.text(k)]) { $0.isNull(0) ? -1 : $0.int(0) }
            }
            #expect(found == [1, 2, 3, -1, nil])
        }
    }

    @Test func aPreparedStatementSurvivesAFailureARollbackAndASchemaChange() throws {
        try PostgresFixture.withSchema { db, scratch in
            try db.execute("CREATE TABLE t (k TEXT COLLATE \"C\" UNIQUE, v BIGINT)")
            let insert = "INSERT INTO t (k, v) VALUES (?, ?)"
            try db.run(insert, [.text("a"), .integer(1)])
            try db.run(insert, [.text("b"), .integer(2)])
            #expect(db.statements.count == 1)
            // A failure inside a transaction, rolled back: the statement is still there.
            let failed = catalogError {
                try db.transaction(write: true) { try db.run(insert, [.text("a"), .integer(9)]) }
            }
            guard case .constraint = failed else { throw failed ?? CatalogError.database(path: "", reason: "none") }
            // Prepared inside a transaction that rolls back: prepared all the same.
            let select = "SELECT k, v FROM t WHERE v >= ? ORDER BY v"
            _ = try? db.transaction(write: true) { () throws -> Void in
                _ = try db.query(select, [.integer(0)]) { $0.int(1) }
                _ = try db.query(select, [.integer(0)]) { $0.int(1) }
                throw CatalogError.invalidRecord(path: "test", reason: "roll back")
            }
            #expect(db.statements.count == 2)
            try db.run(insert, [.text("c"), .integer(3)])
            #expect(try db.query(select, [.integer(2)]) { $0.string(0) } == ["b", "c"])
            // The table changes under the prepared statements (another session): re-planned.
            let other = try scratch.connect()
            try other.execute("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'new'; CREATE INDEX t_v ON t(v)")
            #expect(try db.query(select, [.integer(3)]) { $0.string(0) } == ["c"])
            try db.run(insert, [.text("d"), .integer(4)])
            try other.execute("DROP TABLE t; CREATE TABLE t (k TEXT COLLATE \"C\" UNIQUE, v BIGINT)")
            try db.run(insert, [.text("x"), .integer(7)])
            #expect(try db.query(select, [.integer(0)]) { $0.string(0) } == ["x"])
            try other.execute("DROP TABLE t")
            let gone = catalogError { try db.run(insert, [.text("y"), .integer(8)]) }
            #expect(gone?.reason.contains("does not exist") == true, "\(String(describing: gone))")
        }
    }

    @Test func aReconnectedSessionPreparesAfresh() throws {
        try PostgresFixture.withSchema { db, scratch in
            try db.execute("CREATE TABLE t (v BIGINT)")
            let insert = "INSERT INTO t (v) VALUES (?)"
            try db.run(insert, [.integer(1)])
            try db.run(insert, [.integer(2)])
            #expect(db.statements.count == 1)
            try db.reconnect()
            try db.execute("SET search_path TO \(scratch.schema)")
            #expect(db.statements.count == 0)
            try db.run(insert, [.integer(3)])
            try db.run(insert, [.integer(4)])
            #expect(try db.query("SELECT v FROM t ORDER BY v") { $0.int(0) } == [1, 2, 3, 4])
        }
    }
}
