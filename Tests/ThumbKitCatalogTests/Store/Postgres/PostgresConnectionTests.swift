// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// Connecting: the three failures a user meets are each one clear line without the password.
struct PostgresConnectErrorTests {
    /// Connects to `url` and returns the error it must throw.
    private func connectError(_ url: String) -> CatalogError? {
        do {
            _ = try PostgresConnection(url: url)
            return nil
        } catch {
            return error
        }
    }

    @Test func aPortWithoutServerIsUnreachable() throws {
        // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
        let error = try #require(connectError("postgres://tk:pw-unreachable-1@127.0.0.1:1/thumbkit_test"))
        guard case .open(let path, let reason) = error else { throw error }
        #expect(reason.hasPrefix("server unreachable: "), "\(reason)")
        #expect(reason.contains("connection refused") || reason.contains("Connection refused"), "\(reason)")
        #expect(path == "postgres://tk:***@127.0.0.1:1/thumbkit_test")
        #expect(!error.description.contains("pw-unreachable-1"))
        #expect(!error.description.contains("\n"))
    }

    @Test func aWrongPasswordIsAuthenticationFailed() throws {
        guard let url = TestPostgres.requireURL() else { return }
        let admin = try PostgresConnection(url: url)
        let role = TestPostgres.uniqueName("tk_pw_")
        // Members of thumbkit_password_auth log in with SCRAM (scripts/postgres sets that up).
        try admin.execute("CREATE ROLE \(role) LOGIN PASSWORD 'right-Secret-1' IN ROLE thumbkit_password_auth")
        defer { try? admin.execute("DROP ROLE \(role)") }
        let wrong = "wr0ng-P@ss/w:rd"
        let error = try #require(connectError(TestPostgres.url(url, user: role, password: wrong)))
        guard case .open(_, let reason) = error else { throw error }
        #expect(reason.hasPrefix("authentication failed: "), "\(reason)")
        #expect(reason.contains(role))
        for form in [wrong, wrong.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, "wr0ng"] {
            #expect(!error.description.contains(form), "\(error)")
        }
        #expect(error.path.contains(":***@"))
        // The right password works, so the failure above was the password and nothing else.
        let db = try PostgresConnection(url: TestPostgres.url(url, user: role, password: "right-Secret-1"))
        #expect(try db.queryFirst("SELECT current_user") { $0.string(0) } == role)
    }

    @Test func aMissingDatabaseIsDatabaseMissing() throws {
        guard let url = TestPostgres.requireURL() else { return }
        let name = TestPostgres.uniqueName("tk_missing_")
        let error = try #require(connectError(TestPostgres.url(url, database: name)))
        guard case .notFound(_, let reason) = error else { throw error }
        #expect(reason.hasPrefix("database missing: "), "\(reason)")
        #expect(reason.contains(name))
    }

    @Test func libpqsOwnMessagesAreScrubbedOfThePassword() throws {
        // libpq quotes the URL part it cannot parse: here, the percent-encoded password.
        for url in ["postgres://u:s3cretpw%zz@127.0.0.1:1/db", "postgres://u:s3cretpw@127.0.0.1:1/db?s3cretpw=1"] {
            let error = try #require(connectError(url))
            #expect(!error.description.contains("s3cretpw"), "\(error)")
            #expect(error.description.contains("***"), "\(error)")
        }
    }
}

/// Statements: values are bound, never spliced, and read back exactly.
struct PostgresStatementTests {
    @Test func aHostileTitleIsStoredAsItIs() throws {
        try PostgresFixture.withSchema { db, _ in
            try db.execute("CREATE TABLE bugs (id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL)")
            let titles = ["'; DROP TABLE bugs; --", "what? $1 ?", "\"quoted\" \\ back'slash", "Ünïcødé 🍣", ""]
            for title in titles { try db.run("INSERT INTO bugs (title) VALUES (?)", [.text(title)]) }
            #expect(try db.query("SELECT title FROM bugs ORDER BY id") { $0.string(0) } == titles)
            #expect(try db.queryFirst("SELECT id FROM bugs WHERE title = ?", [.text(titles[0])]) { $0.int(0) } == 1)
            #expect(try db.lastInsertRowID() == titles.count)
            // SQLite's ?NNN form, as CatalogTransaction+History uses it: one value, used twice.
            let sql = "SELECT count(*) FROM bugs WHERE (?1 IS NULL OR title = ?1)"
            #expect(try db.queryFirst(sql, [.text(titles[0])]) { $0.int(0) } == 1)
            // A NULL has no type of its own: the portable spelling casts it.
            let cast = "SELECT count(*) FROM bugs WHERE (CAST(?1 AS TEXT) IS NULL OR title = ?1)"
            #expect(try db.queryFirst(cast, [.null]) { $0.int(0) } == titles.count)
        }
    }

    @Test func valuesRoundTripExactly() throws {
        try PostgresFixture.withSchema { db, _ in
            try db.execute("CREATE TABLE v (i BIGINT, d DOUBLE PRECISION, t TEXT, b BOOLEAN)")
            let doubles = [
                0.1, -1e-300, 1.7976931348623157e308, .leastNonzeroMagnitude, 123456.789, .infinity, -.infinity,
            ]
            for (n, d) in doubles.enumerated() {
                // Integers are bound as int8, so a boolean column takes an expression (or the schema
                // uses INTEGER for flags, as SQLite's does).
                try db.run(
                    "INSERT INTO v VALUES (?, ?, ?, ? = 1)",
                    [.integer(n == 0 ? Int.max : Int.min + n), .real(d), .text("x\(n)"), .integer(n % 2)])
            }
            try db.run("INSERT INTO v VALUES (?, ?, ?, NULL)", [.null, .null, .null])
            let rows = try db.query("SELECT i, d, t, b::int, b FROM v ORDER BY t NULLS LAST") { row in
                (
                    row.optionalString(0), row.optionalDouble(1), row.optionalString(2), row.int(3), row.int(4),
                    row.isNull(0)
                )
            }
            #expect(rows.count == doubles.count + 1)
            for (n, d) in doubles.enumerated() {
                #expect(rows[n].1 == d)
                #expect(rows[n].2 == "x\(n)")
                #expect(rows[n].3 == n % 2 && rows[n].4 == n % 2)  // booleans read as 1 and 0
            }
            #expect(rows[0].0 == String(Int.max))
            #expect(try db.queryFirst("SELECT ?::float8", [.real(.nan)]) { $0.double(0).isNaN } == true)
            let last = try #require(rows.last)
            #expect(last.0 == nil && last.1 == nil && last.2 == nil && last.5)
            #expect(try db.run("UPDATE v SET t = ? WHERE i IS NOT NULL", [.text("y")]) == doubles.count)
        }
    }

    @Test func textWithANulCharacterIsAnInvalidRecord() throws {
        try PostgresFixture.withSchema { db, _ in
            try db.execute("CREATE TABLE bugs (title TEXT)")
            #expect {
                try db.run("INSERT INTO bugs VALUES (?)", [.text("before\u{0}after")])
            } throws: { error in
                guard case CatalogError.invalidRecord(_, let reason) = error else { return false }
                return reason.contains("nul")
            }
            // Nothing was stored, not even a truncated "before".
            #expect(try db.queryFirst("SELECT count(*) FROM bugs") { $0.int(0) } == 0)
        }
    }

    @Test func failuresAreClassified() throws {
        try PostgresFixture.withSchema { db, _ in
            try db.execute("CREATE TABLE u (k TEXT PRIMARY KEY)")
            try db.run("INSERT INTO u VALUES (?)", [.text("a")])
            #expect(throws: CatalogError.self) { try db.run("INSERT INTO u VALUES (?)", [.text("a"), .text("b")]) }
            #expect {
                try db.run("INSERT INTO u VALUES (?)", [.text("a")])
            } throws: { error in
                guard case CatalogError.constraint = error else { return false }
                return true
            }
            #expect {
                try db.run("SELECT * FROM no_such_table WHERE k = ?", [.text("a")])
            } throws: { error in
                guard case CatalogError.database(_, let reason) = error else { return false }
                return reason.contains("no_such_table") && !reason.contains("\n")
            }
        }
    }
}

/// Transactions and savepoints behave like SQLiteConnection's.
struct PostgresTransactionTests {
    struct Boom: Error {}

    private func keys(_ db: PostgresConnection) throws -> [Int] {
        try db.query("SELECT k FROM t ORDER BY k") { $0.int(0) }
    }

    @Test func aNestedTransactionThatThrowsRollsBackOnlyItsSavepoint() throws {
        try PostgresFixture.withSchema { db, _ in
            try db.execute("CREATE TABLE t (k INT)")
            try db.transaction(write: true) { () throws -> Void in
                try db.run("INSERT INTO t VALUES (1)")
                #expect(throws: Boom.self) {
                    try db.transaction(write: true) {
                        try db.run("INSERT INTO t VALUES (2)")
                        try db.transaction(write: true) { _ = try db.run("INSERT INTO t VALUES (3)") }
                        throw Boom()
                    }
                }
                // A failed statement inside a savepoint does not abort the outer transaction.
                #expect(throws: CatalogError.self) {
                    try db.transaction(write: true) { _ = try db.run("INSERT INTO t VALUES ('not a number')") }
                }
                try db.run("INSERT INTO t VALUES (4)")
            }
            #expect(try keys(db) == [1, 4])
            #expect(db.depth == 0)
        }
    }

    @Test func theOuterTransactionRollsBackEverything() throws {
        try PostgresFixture.withSchema { db, _ in
            try db.execute("CREATE TABLE t (k INT)")
            #expect(throws: Boom.self) {
                try db.transaction(write: true) {
                    try db.run("INSERT INTO t VALUES (1)")
                    try db.transaction(write: true) { _ = try db.run("INSERT INTO t VALUES (2)") }
                    throw Boom()
                }
            }
            #expect(try keys(db) == [])
        }
    }

    @Test func aTransactionAbortedByACaughtFailureIsNotCommitted() throws {
        try PostgresFixture.withSchema { db, _ in
            try db.execute("CREATE TABLE t (k INT)")
            var thrown: (any Error)?
            do {
                try db.transaction(write: true) { () throws -> Void in
                    try db.run("INSERT INTO t VALUES (1)")
                    // Caught here, but PostgreSQL has aborted the transaction: it must not commit.
                    _ = try? db.run("INSERT INTO t VALUES ('x')")
                }
            } catch {
                thrown = error
            }
            #expect(thrown is CatalogError)
            #expect(try keys(db) == [])
            try db.transaction(write: false) { () throws -> Void in try db.run("INSERT INTO t VALUES (5)") }
            #expect(try keys(db) == [5])
        }
    }
}
