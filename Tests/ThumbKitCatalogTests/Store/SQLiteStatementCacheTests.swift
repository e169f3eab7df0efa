// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// `SQLiteConnection` keeps its compiled statements for reuse: a reused statement must answer
/// exactly as a fresh one, whatever happened to it or to the schema in between.
struct SQLiteStatementCacheTests {
    /// A connection to a new database in `workspace` with table `t (k TEXT UNIQUE, v INTEGER)`.
    private func connection(in workspace: TestWorkspace) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: workspace.path("cache.sqlite"), busyTimeoutMilliseconds: 1000)
        try db.execute("CREATE TABLE t (k TEXT UNIQUE, v INTEGER)")
        return db
    }

    /// The statements of `db` that are mid-step (holding a read, or bound to a result).
    private func busyStatements(_ db: SQLiteConnection) -> Int {
        var busy = 0
        var statement = sqlite3_next_stmt(db.handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { busy += 1 }
            statement = sqlite3_next_stmt(db.handle, current)
        }
        return busy
    }

    @Test func aReusedStatementTakesItsNewValuesAndKeepsNoneOfTheOld() throws {
        let workspace = try TestWorkspace()
        let db = try connection(in: workspace)
        let insert = "INSERT INTO t (k, v) VALUES (?, ?)"
        try db.run(insert, [.text("a"), .integer(1)])
        try db.run(insert, [.text("b"), .null])
        try db.run(insert, [.text("c\u{0}d"), .integer(3)])
        let select = "SELECT k, v FROM t WHERE k = ?"
        #expect(try db.queryFirst(select, [.text("a")]) { $0.int(1) } == 1)
        #expect(try db.queryFirst(select, [.text("b")]) { $0.isNull(1) } == true)
        #expect(try db.queryFirst(select, [.text("c\u{0}d")]) { $0.string(0) } == "c\u{0}d")
        #expect(try db.queryFirst(select, [.text("zz")]) { $0.int(1) } == nil)
        #expect(try db.query("SELECT k FROM t ORDER BY k") { $0.string(0) } == ["a", "b", "c\u{0}d"])
        // One statement per text, each kept once.
        #expect(db.statements.count == 3)
        #expect(busyStatements(db) == 0)
    }

    @Test func aStatementThatFailedRunsAgainCleanly() throws {
        let workspace = try TestWorkspace()
        let db = try connection(in: workspace)
        let insert = "INSERT INTO t (k, v) VALUES (?, ?)"
        try db.run(insert, [.text("a"), .integer(1)])
        let error = catalogError { try db.run(insert, [.text("a"), .integer(2)]) }
        guard case .constraint = error else { throw error ?? CatalogError.database(path: "", reason: "no error") }
        try db.run(insert, [.text("b"), .integer(2)])
        // An error thrown by a row's map leaves the statement reset, not mid-result.
        let failing = catalogError {
            try db.query("SELECT v FROM t ORDER BY v") { row throws(CatalogError) -> Int in
                throw CatalogError.invalidRecord(path: "row", reason: "refused \(row.int(0))")
            }
        }
        #expect(failing == .invalidRecord(path: "row", reason: "refused 1"))
        #expect(busyStatements(db) == 0)
        #expect(try db.query("SELECT v FROM t ORDER BY v") { $0.int(0) } == [1, 2])
    }

    @Test func aFirstRowReadLeavesNoReadOpenAndANestedUseOfTheSameTextGetsItsOwn() throws {
        let workspace = try TestWorkspace()
        let db = try connection(in: workspace)
        for (k, v) in [("a", 1), ("b", 2), ("c", 3)] {
            try db.run("INSERT INTO t VALUES (?, ?)", [.text(k), .integer(v)])
        }
        #expect(try db.queryFirst("SELECT v FROM t ORDER BY v") { $0.int(0) } == 1)
        #expect(busyStatements(db) == 0)
        // Another connection can write: no read of this one is left open.
        let other = try SQLiteConnection(path: workspace.path("cache.sqlite"), busyTimeoutMilliseconds: 0)
        try other.execute("BEGIN IMMEDIATE; DELETE FROM t WHERE k = 'c'; COMMIT")
        let select = "SELECT k, v FROM t WHERE v >= ? ORDER BY v"
        let pairs = try db.query(select, [.integer(1)]) { row throws(CatalogError) in
            (row.string(0), try db.query(select, [.integer(row.int(1))]) { $0.string(0) })
        }
        #expect(pairs.map(\.0) == ["a", "b"])
        #expect(pairs.map(\.1) == [["a", "b"], ["b"]])
    }

    @Test func aStatementKeptAcrossASchemaChangeSeesTheNewSchema() throws {
        let workspace = try TestWorkspace()
        let db = try connection(in: workspace)
        try db.run("INSERT INTO t VALUES ('a', 1)")
        let select = "SELECT * FROM t"
        #expect(try db.queryFirst(select) { [$0.string(0), String($0.int(1))] } == ["a", "1"])
        // Another connection changes the schema (the cached statement was compiled before).
        let other = try SQLiteConnection(path: workspace.path("cache.sqlite"), busyTimeoutMilliseconds: 1000)
        try other.execute("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'new'")
        #expect(try db.queryFirst(select) { $0.string(2) } == "new")
        try other.execute("DROP TABLE t")
        let error = catalogError { try db.queryFirst(select) { $0.int(0) } }
        #expect(error?.reason.contains("no such table: t") == true, "\(String(describing: error))")
        try other.execute("CREATE TABLE t (z INTEGER); INSERT INTO t VALUES (42)")
        #expect(try db.queryFirst(select) { $0.int(0) } == 42)
        // And a migration on this very connection: the store's whole schema.
        try CatalogSchema.migrate(db)
        #expect(try CatalogSchema.userVersion(db) == CatalogSchema.latestVersion)
    }

    @Test func theCacheStaysWithinItsLimitAndLetsItsConnectionClose() throws {
        let workspace = try TestWorkspace()
        weak var closed: SQLiteConnection?
        do {
            let db = try connection(in: workspace)
            for n in 0...(SQLiteStatementCache.limit + 5) {
                #expect(try db.queryFirst("SELECT \(n)") { $0.int(0) } == n)
                #expect(db.statements.count <= SQLiteStatementCache.limit)
            }
            closed = db
        }
        // The kept statements hold no reference to it: it closed (its statements finalized).
        #expect(closed == nil)
    }
}
