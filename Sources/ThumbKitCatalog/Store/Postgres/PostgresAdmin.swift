// SPDX-License-Identifier: Apache-2.0
/// Statements run on their own connection to a PostgreSQL URL, for the tools around a catalog
/// (test fixtures that make and drop a schema of their own): connects, runs, disconnects.
package enum PostgresAdmin {
    /// Runs `sql` (statements without parameters) on a fresh connection to `url`.
    package static func execute(_ sql: String, url: String) throws(CatalogError) {
        try PostgresConnection(url: url).execute(sql)
    }

    /// `name` as a double-quoted SQL identifier.
    package static func quote(_ name: String) -> String { PostgresConnection.quoteIdentifier(name) }
}
