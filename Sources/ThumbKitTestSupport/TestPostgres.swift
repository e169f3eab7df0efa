// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The PostgreSQL cluster the PostgreSQL tests run against: the URL in
/// `$THUMBKIT_TEST_POSTGRES_URL`, as printed by `scripts/postgres url` (test code may read the
/// environment; shipped code never does).
///
///     scripts/postgres start
///     THUMBKIT_TEST_POSTGRES_URL=$(scripts/postgres url) swift test --filter Postgres
///     scripts/postgres stop
public enum TestPostgres {
    /// Environment variable that holds the test cluster's URL.
    public static let environmentKey = "THUMBKIT_TEST_POSTGRES_URL"

    /// The URL, or nil when the variable is unset or empty.
    public static var url: String? {
        guard let value = ProcessInfo.processInfo.environment[environmentKey], !value.isEmpty else { return nil }
        return value
    }

    /// Call at the start of a test that needs PostgreSQL. Returns the URL when one is set.
    /// When none is, prints a visible "NOTICE: … skipping" line and returns nil, or, under
    /// `CI=true`, also records a test failure: CI must never pass by skipping.
    public static func requireURL(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        if let url { return url }
        let message =
            "\(environmentKey) is not set (scripts/postgres start; export it from scripts/postgres url); skipping"
        print("NOTICE: \(message)")
        if ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" {
            Issue.record("CI=true but \(message)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// `url` with its user, password, port or database replaced (each only when given).
    public static func url(
        _ url: String, user: String? = nil, password: String? = nil, port: Int? = nil, database: String? = nil
    ) -> String {
        guard var parts = URLComponents(string: url) else { return url }
        if let user { parts.user = user }
        if let password { parts.password = password }
        if let port { parts.port = port }
        if let database { parts.path = "/" + database }
        return parts.string ?? url
    }

    /// A short random name for a per-test schema, role or database: `prefix` + 12 hex digits.
    public static func uniqueName(_ prefix: String) -> String {
        prefix + String(UInt64.random(in: 0...UInt64.max) & 0xffff_ffff_ffff, radix: 16)
    }
}
