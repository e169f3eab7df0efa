// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// What only the PostgreSQL store does: its schema, migration under a lock, and its errors.
@Suite(.enabled(if: CatalogBackend.postgresEnabled, "THUMBKIT_TEST_POSTGRES_URL is not set"))
struct PostgresStoreTests {
    @Test func twoStoresOpeningAFreshDatabaseAtOnceMigrateItOnce() async throws {
        let workspace = try TestWorkspace()
        let location = try CatalogBackend.postgres.location(in: workspace)
        for _ in 0..<3 {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask { try CatalogStore(location: location).schemaVersion() }
                }
                for try await version in group { #expect(version == CatalogStore.latestSchemaVersion) }
            }
        }
        let store = try CatalogStore(location: location)
        let versions = try store.read { tx in
            try tx.connection.query("SELECT version FROM schema_version") { $0.int(0) }
        }
        #expect(versions == [CatalogStore.latestSchemaVersion])
        #expect(try store.quickCheck() == [])
        #expect(try store.foreignKeysEnabled())
    }

    @Test func aFreshCatalogHasEverySQLiteTableIndexAndTrigger() throws {
        let workspace = try TestWorkspace()
        let sqlite = try workspace.store(backend: .sqlite)
        let postgres = try workspace.store(backend: .postgres)
        let sqliteTables = try sqlite.read { try CatalogDialect.sqlite.tables($0.connection) }
        let postgresTables = try postgres.read { try CatalogDialect.postgres.tables($0.connection) }
        #expect(postgresTables == sqliteTables.union(["schema_version"]))
        let sqliteIndexes = try sqlite.read { tx in
            Set(
                try tx.connection.query(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"
                ) { $0.string(0) })
        }
        let postgresIndexes = try postgres.read { tx in
            Set(
                try tx.connection.query(
                    "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'"
                ) { $0.string(0) })
        }
        #expect(postgresIndexes == sqliteIndexes)
        let triggers = try postgres.read { tx in
            try tx.connection.query(
                "SELECT DISTINCT trigger_name FROM information_schema.triggers WHERE trigger_schema = current_schema() ORDER BY 1"
            ) { $0.string(0) }
        }
        let sqliteTriggers = try sqlite.read { tx in
            Set(try tx.connection.query("SELECT name FROM sqlite_master WHERE type = 'trigger'") { $0.string(0) })
        }
        // The same triggers by name (the NOTIFY trigger of version 4 went in version 9).
        #expect(Set(triggers) == sqliteTriggers)
        #expect(triggers.contains("settings_queue_update") && triggers.contains("foods_queue_delete"))
        #expect(CatalogSchema.postgresMigrations.count == CatalogSchema.migrations.count)
    }

    @Test func aDatabaseFromANewerThumbkitIsRefused() throws {
        let workspace = try TestWorkspace()
        let location = try CatalogBackend.postgres.location(in: workspace)
        let store = try CatalogStore(location: location)
        try store.write { tx in try tx.connection.execute("UPDATE schema_version SET version = 99") }
        let error = catalogError { _ = try CatalogStore(location: location) }
        guard case .schema(_, let reason) = error else {
            Issue.record("expected schema, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("99") && reason.contains("newer"))
    }

    @Test func aSchemaHoldingAnotherProgramsTablesIsRefusedAndLeftAlone() throws {
        let workspace = try TestWorkspace()
        let url = try CatalogBackend.postgres.catalog(in: workspace)
        try PostgresAdmin.execute("CREATE TABLE invoices (id INT)", url: url)
        let error = catalogError { _ = try CatalogStore(location: .postgres(url: url)) }
        guard case .corrupt(_, let reason) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("invoices"))
        let missing = catalogError { _ = try CatalogStore(location: .postgres(url: url), readOnly: true) }
        if case .notFound = missing {} else { Issue.record("expected notFound, got \(String(describing: missing))") }
    }

    @Test func aReadOnlyStoreCannotWrite() throws {
        let workspace = try TestWorkspace()
        let location = try CatalogBackend.postgres.location(in: workspace)
        try CatalogStore(location: location).write { try $0.addBug(title: "Kept") }
        let reader = try CatalogStore(location: location, readOnly: true)
        #expect(try reader.bugs().map(\.title) == ["Kept"])
        #expect(catalogError { try reader.write { try $0.addBug(title: "No") } } != nil)
    }

    @Test func connectionErrorsAreOneClearLineWithoutThePassword() throws {
        guard let base = TestPostgres.requireURL() else { try Test.cancel("no PostgreSQL") }
        let role = TestPostgres.uniqueName("tk_role_")
        let secret = "s3cr3t-Pa55word"
        try PostgresAdmin.execute(
            "CREATE ROLE \(role) LOGIN PASSWORD '\(secret)' IN ROLE thumbkit_password_auth", url: base)
        defer { try? PostgresAdmin.execute("DROP ROLE \(role)", url: base) }
        let wrong = TestPostgres.url(base, user: role, password: secret + "x")
        let missingDB = TestPostgres.url(base, database: TestPostgres.uniqueName("tk_nodb_"))
        let unreachable = TestPostgres.url(base, password: secret, port: 1)
        let cases: [(String, String)] = [
            (wrong, "authentication failed"), (missingDB, "database missing"), (unreachable, "server unreachable"),
        ]
        for (url, expected) in cases {
            let error = catalogError { _ = try CatalogStore(location: .postgres(url: url)) }
            let text = error.map { "\($0)" } ?? ""
            #expect(error?.reason.contains(expected) == true, "\(text)")
            #expect(!text.contains(secret), "\(text)")
            #expect(!text.contains("\n"), "\(text)")
        }
    }
}
