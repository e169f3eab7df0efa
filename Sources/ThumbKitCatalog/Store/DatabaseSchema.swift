// SPDX-License-Identifier: Apache-2.0
/// One kind of ThumbKit database: its schema as lists of forward migrations (one list per
/// backend) and what tells a database of this kind from any other. The catalog
/// (`CatalogSchema.definition`) is one; ThumbKitBench's benchmark history is another. Both are
/// opened, checked and migrated by the same code (`openSQLite`, `migrate`), through `package`
/// access, so there is one SQLite layer.
///
/// Migration *n* (1-based) turns a database at version n−1 into one at n (`PRAGMA user_version`,
/// or PostgreSQL's `schema_version` table). They run in order, all pending ones in a single
/// transaction, so a failure leaves the database at its old version. Never edit a shipped
/// migration: append a new one.
package struct DatabaseSchema: Sendable {
    /// What a database of this kind is called in messages: `catalog`, `benchmark history`.
    package let noun: String
    /// The SQLite migrations, in order.
    package let sqliteMigrations: [String]
    /// The PostgreSQL migrations, in step with the SQLite ones; empty for a kind that lives in
    /// SQLite only.
    package let postgresMigrations: [String]
    /// The tables every database of this kind has.
    package let tables: Set<String>
    /// SQLite's `PRAGMA application_id` of this kind, set when the database is created; nil
    /// for a kind without one (the catalog, whose files predate it).
    package let applicationID: Int32?
    /// Which commands only read a database of this kind (said when one cannot be written).
    package let readOnlyHint: String
    /// What to do instead, said when a database of another kind is given for this one.
    package let foreignHint: String?

    package init(
        noun: String, sqliteMigrations: [String], postgresMigrations: [String] = [], tables: Set<String>,
        applicationID: Int32? = nil, readOnlyHint: String, foreignHint: String? = nil
    ) {
        self.noun = noun
        self.sqliteMigrations = sqliteMigrations
        self.postgresMigrations = postgresMigrations
        self.tables = tables
        self.applicationID = applicationID
        self.readOnlyHint = readOnlyHint
        self.foreignHint = foreignHint
    }

    /// The version a fresh or migrated database ends at.
    package var latestVersion: Int { sqliteMigrations.count }

    /// The migrations of `dialect`, in order.
    package func migrations(for dialect: CatalogDialect) -> [String] {
        switch dialect {
        case .sqlite: sqliteMigrations
        case .postgres: postgresMigrations
        }
    }

    /// Brings `connection` up to `target` (default: the latest version), with its dialect's
    /// migrations, all pending ones in one write transaction. Writers exclude each other (SQLite's
    /// write lock; PostgreSQL's advisory lock, see `CatalogDialect.begin`) and the version is read
    /// again under that lock, so two processes opening a fresh database at once migrate it once.
    /// A fresh SQLite database also gets this kind's `applicationID`.
    ///
    /// - Throws: `CatalogError.schema` when the database is newer than this build, or when a
    ///   migration fails (the database is then left at its old version).
    package func migrate(_ connection: any CatalogConnection, to target: Int? = nil) throws {
        let target = target ?? latestVersion
        precondition((0...latestVersion).contains(target), "No such schema version.")
        let dialect = connection.dialect
        let steps = migrations(for: dialect)
        guard steps.count == latestVersion else {
            throw CatalogError.schema(
                path: connection.location,
                reason: "this build has \(steps.count) \(dialect) migrations for schema version \(latestVersion)")
        }
        let current = try dialect.schemaVersion(connection)
        try check(current, path: connection.location)
        guard current < target else { return }
        try connection.transaction(write: true) {
            try dialect.prepareVersioning(connection)
            // Re-read inside the write lock: another process may have migrated meanwhile.
            let start = try dialect.schemaVersion(connection)
            try check(start, path: connection.location)
            guard start < target else { return }
            if start == 0, let applicationID, case .sqlite = dialect {
                try connection.execute("PRAGMA application_id = \(applicationID)")
            }
            for version in (start + 1)...target {
                do {
                    try connection.execute(steps[version - 1])
                } catch let error as CatalogError {
                    if case .locked = error { throw error }
                    throw CatalogError.schema(
                        path: connection.location, reason: "migration to version \(version) failed: \(error.reason)")
                }
            }
            try dialect.setSchemaVersion(target, connection)
        }
    }

    /// Throws `CatalogError.schema` for a version this build cannot open: newer than
    /// `latestVersion`, or negative (no thumbkit ever writes one; the file was tampered with).
    package func check(_ version: Int, path: String) throws(CatalogError) {
        if version < 0 {
            throw CatalogError.schema(
                path: path, reason: "schema version \(version) is not a version thumbkit writes (the file was changed)")
        }
        if version > latestVersion {
            throw CatalogError.schema(
                path: path,
                reason: "schema version \(version) is newer than this thumbkit understands (\(latestVersion))")
        }
    }

    /// Nil when the database behind `connection` (which existed before it was opened) is of
    /// this kind: it has every one of the kind's tables and, on SQLite, its application id.
    /// Otherwise why not, as the reason of `CatalogError.corrupt`. Its first statement reads the
    /// file's header, so a file that is no database at all (a picture, a text) is found here.
    package func mismatch(_ connection: any CatalogConnection) throws(CatalogError) -> String? {
        let hint = foreignHint.map { "; \($0)" } ?? ""
        let found: Set<String>
        do {
            found = try connection.dialect.tables(connection)
        } catch .corrupt(_, let reason) {
            return unreadable(reason)
        }
        guard found.isSuperset(of: tables) else {
            return "not a thumbkit \(noun) (it has none of its tables)\(hint)"
        }
        if let applicationID, case .sqlite = connection.dialect,
            try connection.queryFirst("PRAGMA application_id", { $0.int(0) }) != Int(applicationID)
        {
            return "not a thumbkit \(noun) (another kind of database)\(hint)"
        }
        return nil
    }

    /// The reason of `CatalogError.corrupt` for a file SQLite cannot read (`why`: SQLite's
    /// words, such as "file is not a database" for a picture or a text file).
    package func unreadable(_ why: String) -> String {
        "cannot be read as a thumbkit \(noun) (\(why))" + (foreignHint.map { "; \($0)" } ?? "")
    }

    /// The error for a database that commands which change it cannot use.
    package func cannotWrite(_ path: String, _ why: String) -> CatalogError {
        .open(path: path, reason: "cannot write the \(noun): \(why) (\(readOnlyHint))")
    }
}
