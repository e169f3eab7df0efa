// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitTestSupport

/// The database a test's catalog lives in, so that one test runs on both backends:
///
///     @Test(arguments: CatalogBackend.all)
///     func something(backend: CatalogBackend) throws {
///         let workspace = try TestWorkspace()
///         let store = try workspace.store(backend: backend)
///
/// A PostgreSQL catalog gets a schema of its own in the test cluster's database
/// (`$THUMBKIT_TEST_POSTGRES_URL`, via the URL's `options=-csearch_path=…`), dropped with its
/// workspace: tests running at once never see each other, and a schema costs a few
/// milliseconds where a fresh database costs a few hundred.
///
/// Without a cluster, `all` is SQLite alone, and the test `CatalogBackendTests.postgresCasesRun`
/// (which otherwise checks that a PostgreSQL catalog works, `checkPostgresCatalogWorks`) shows
/// as skipped, saying why (Swift Testing cannot show one case of a test as skipped: a
/// case that returned early would count as passed). Under `CI=true` the PostgreSQL cases stay
/// in, and each fails.
public enum CatalogBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// Whether PostgreSQL tests run: a cluster is configured, or `CI=true` requires one (the
    /// tests then fail for want of it).
    public static let postgresEnabled =
        TestPostgres.url != nil || ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"

    /// The backends to test, for `@Test(arguments:)`: both, or SQLite alone when PostgreSQL
    /// tests do not run (`postgresEnabled`).
    public static let all: [CatalogBackend] = postgresEnabled ? allCases : [.sqlite]

    public var testDescription: String { rawValue }

    /// The body of each test target's `CatalogBackendTests.postgresCasesRun`: the PostgreSQL
    /// cases that `all` adds reach a working catalog (a record written, then read back, in a
    /// schema of the test cluster). Under CI=true without a cluster this fails, as they would.
    public static func checkPostgresCatalogWorks() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let bug = try store.write { try $0.addBug(title: "PostgreSQL round trip") }
        #expect(try store.bugs().map(\.title) == ["PostgreSQL round trip"])
        #expect(try store.bugs().map(\.id) == [bug.id])
    }

    /// The `--catalog` value of the catalog `name` in `workspace`: a file there, or a URL
    /// naming the schema this workspace uses for `name` (created on first use).
    public func catalog(_ name: String = "thumbkit.sqlite", in workspace: TestWorkspace) throws -> String {
        switch self {
        case .sqlite: return workspace.path(name)
        case .postgres: return try workspace.postgresCatalog(name)
        }
    }

    /// Where `catalog(_:in:)` is.
    package func location(_ name: String = "thumbkit.sqlite", in workspace: TestWorkspace) throws -> CatalogLocation {
        try CatalogLocation(parsing: catalog(name, in: workspace))
    }
}

extension TestWorkspace {
    /// The catalog `name` of this workspace on `backend` (see `CatalogBackend`).
    public func store(
        _ name: String = "thumbkit.sqlite", busyTimeout: Duration = .seconds(5), backend: CatalogBackend
    ) throws -> CatalogStore {
        try CatalogStore(location: backend.location(name, in: self), busyTimeout: busyTimeout)
    }

    /// A URL for catalog `name` whose search_path is a fresh schema, dropped in `deinit`.
    func postgresCatalog(_ name: String) throws -> String {
        if let url = postgresCatalogs[name] { return url }
        // Records the failure under CI=true; elsewhere prints the NOTICE (tests that need
        // PostgreSQL are enabled only when it is configured, so this is a mistake in a test).
        guard let base = TestPostgres.requireURL() else {
            try Test.cancel("\(TestPostgres.environmentKey) is not set")
        }
        let schema = TestPostgres.uniqueName("tk_t_")
        try PostgresAdmin.execute("CREATE SCHEMA \(schema)", url: base)
        onRemove { try? PostgresAdmin.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE", url: base) }
        let url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        postgresCatalogs[name] = url
        return url
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips, visibly, a target's note test when the PostgreSQL cases of its
    /// `CatalogBackend.all` tests are left out (THUMBKIT_TEST_POSTGRES_URL unset, not CI), so a
    /// run of any one target says so.
    public static var postgresCasesIncluded: Self {
        .enabled(
            if: CatalogBackend.postgresEnabled,
            "THUMBKIT_TEST_POSTGRES_URL is not set: the PostgreSQL cases of every CatalogBackend.all test are left out")
    }
}
