// SPDX-License-Identifier: Apache-2.0
extension CatalogStore {
    /// Connects to the PostgreSQL catalog at `url` and readies it: the catalog is the URL's
    /// current schema (the first of `search_path` that exists). A schema with no tables gets a
    /// new catalog (unless `mustExist` or `readOnly`); one with other tables and no catalog is
    /// refused, as SQLite refuses another program's file. Migrations run forward in one
    /// transaction under the catalog's write lock (`CatalogSchema.migrate`). Read-only: the
    /// session's transactions are `READ ONLY` and nothing is migrated.
    static func openPostgres(
        url: String, lockTimeoutMilliseconds millis: Int, schemaVersion: Int, readOnly: Bool, mustExist: Bool
    ) throws -> PostgresConnection {
        let db = try PostgresConnection(url: url, lockTimeoutMilliseconds: millis)
        guard let found = try db.queryFirst("SELECT current_schema()", { $0.optionalString(0) }), let schema = found
        else {
            throw CatalogError.open(
                path: db.location,
                reason: "no schema of the search_path exists (create it, or fix the url's options=-csearch_path=…)")
        }
        // Writers of this catalog (this database and schema) exclude each other as their lock
        // modes say; claims also exclude each other (`WriteLockMode`, docs/scale-out.md "Locks").
        db.writeLockKeys = WriteLockKeys(
            catalog: PostgresConnection.advisoryKey("thumbkit catalog writer: " + schema),
            claim: PostgresConnection.advisoryKey("thumbkit claim: " + schema))
        let tables = try CatalogDialect.postgres.tables(db)
        if !tables.isSuperset(of: CatalogSchema.catalogTables) {
            if readOnly || mustExist {
                throw CatalogError.notFound(path: db.location, reason: "no catalog here (schema '\(schema)' has none)")
            }
            let others = tables.subtracting(["schema_version"]).sorted()
            if !others.isEmpty {
                throw CatalogError.corrupt(
                    path: db.location,
                    reason: "not a thumbkit catalog: schema '\(schema)' holds other tables ("
                        + others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", …" : "")
                        + "); give an empty database or schema")
            }
        }
        if readOnly {
            try CatalogSchema.check(try CatalogSchema.userVersion(db), path: db.location)
            try db.execute("SET default_transaction_read_only = on")
        } else {
            try CatalogSchema.migrate(db, to: schemaVersion)
        }
        return db
    }
}
