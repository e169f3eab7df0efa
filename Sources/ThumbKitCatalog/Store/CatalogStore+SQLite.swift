import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension CatalogStore {
    /// Opens (or, unless `mustExist` or `readOnly`, creates) the SQLite catalog at `path`:
    /// checks that a file that is there is a catalog, switches to WAL mode with foreign keys
    /// on, and migrates it to `schemaVersion` (read-only: only checks the version).
    static func openSQLite(
        path: String, busyTimeoutMilliseconds millis: Int32, schemaVersion: Int, readOnly: Bool, mustExist: Bool
    ) throws -> SQLiteConnection {
        var isFolder: ObjCBool = false
        let folder = (path as NSString).deletingLastPathComponent
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw CatalogError.open(path: path, reason: "is a folder, not a database file")
        }
        if !folder.isEmpty,
            !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
                || !isFolder.boolValue
        {
            throw CatalogError.open(path: path, reason: "folder '\(folder)' does not exist")
        }
        var info = stat()
        let existed = lstat(path, &info) == 0
        if existed, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 {
            throw CatalogError.corrupt(
                path: path,
                reason: "empty file (0 bytes), not a thumbkit catalog; restore it from a backup or remove it")
        }
        if readOnly || mustExist, !existed {
            throw CatalogError.notFound(path: path, reason: "no catalog here")
        }
        let connection: SQLiteConnection
        if readOnly {
            connection = try openReadOnly(path: path, busyTimeoutMilliseconds: millis)
        } else {
            connection = try SQLiteConnection(
                path: path, busyTimeoutMilliseconds: millis, access: existed ? .readWrite : .create)
            if connection.isReadOnly { throw cannotWrite(path, "the file is read-only") }
        }
        // The first statement reads the header: a file that is not a database fails here.
        do {
            if existed, try !CatalogSchema.hasCatalogTables(connection) {
                throw CatalogError.corrupt(path: path, reason: "not a thumbkit catalog (it has none of its tables)")
            }
            if readOnly {
                try CatalogSchema.check(try CatalogSchema.userVersion(connection), path: path)
                try connection.execute("PRAGMA foreign_keys = ON")
            } else {
                let mode = try connection.queryFirst("PRAGMA journal_mode = WAL") { $0.string(0) }
                guard mode?.lowercased() == "wal" else {
                    throw CatalogError.database(
                        path: path, reason: "cannot switch to WAL mode (journal mode is \(mode ?? "unknown"))")
                }
                try connection.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
                try CatalogSchema.migrate(connection, to: schemaVersion)
            }
        } catch CatalogError.open(_, let reason) where !readOnly {
            // SQLite could not create the `-wal`/`-shm` files or write the file.
            throw cannotWrite(path, "\(reason); is its folder read-only?")
        }
        return connection
    }

    /// A read-only connection that has read the header: plain `SQLITE_OPEN_READONLY` first, and
    /// `immutable` when SQLite cannot reach the WAL index (a read-only mount or folder).
    private static func openReadOnly(path: String, busyTimeoutMilliseconds millis: Int32) throws -> SQLiteConnection {
        let plain = try SQLiteConnection(path: path, busyTimeoutMilliseconds: millis, access: .readOnly)
        do {
            _ = try plain.queryFirst("SELECT COUNT(*) FROM sqlite_master") { $0.int(0) }
            return plain
        } catch CatalogError.open {
            return try SQLiteConnection(path: path, busyTimeoutMilliseconds: millis, access: .immutable)
        }
    }

    /// The error for a catalog that commands which change it cannot use.
    static func cannotWrite(_ path: String, _ why: String) -> CatalogError {
        .open(path: path, reason: "cannot write the catalog: \(why) (list, show, export and site only read it)")
    }
}
