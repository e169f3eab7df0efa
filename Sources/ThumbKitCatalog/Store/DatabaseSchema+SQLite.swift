// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension DatabaseSchema {
    /// Opens (or, unless `mustExist` or `readOnly`, creates) the SQLite database of this kind at
    /// `path`: checks that a file that is there is one of this kind (an empty file, an empty
    /// database, another program's file or a ThumbKit database of another kind is refused and
    /// left as it was), switches to WAL mode with foreign keys on, and migrates it to `version`
    /// (default: the latest; read-only: only checks the version).
    ///
    /// Nothing is written to a file that is there before it has been recognised: the only
    /// statements before the check read it.
    package func openSQLite(
        path: String, busyTimeoutMilliseconds millis: Int32, version: Int? = nil, readOnly: Bool, mustExist: Bool
    ) throws -> any CatalogConnection {
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
                reason: "empty file (0 bytes), not a thumbkit \(noun); restore it from a backup or remove it")
        }
        if readOnly || mustExist, !existed {
            throw CatalogError.notFound(path: path, reason: "no \(noun) here")
        }
        let connection: SQLiteConnection
        if readOnly {
            do {
                connection = try Self.openReadOnly(path: path, busyTimeoutMilliseconds: millis)
            } catch CatalogError.corrupt(_, let reason) {
                // Its probe read the header: a picture or a text file fails here.
                throw CatalogError.corrupt(path: path, reason: unreadable(reason))
            }
        } else {
            connection = try SQLiteConnection(
                path: path, busyTimeoutMilliseconds: millis, access: existed ? .readWrite : .create)
            if connection.isReadOnly { throw cannotWrite(path, "the file is read-only") }
        }
        // The first statement reads the header: a file that is not a database fails here.
        do {
            if existed, let reason = try mismatch(connection) {
                throw CatalogError.corrupt(path: path, reason: reason)
            }
            if readOnly {
                try check(try connection.dialect.schemaVersion(connection), path: path)
                try connection.execute("PRAGMA foreign_keys = ON")
            } else {
                let mode = try connection.queryFirst("PRAGMA journal_mode = WAL") { $0.string(0) }
                guard mode?.lowercased() == "wal" else {
                    throw CatalogError.database(
                        path: path, reason: "cannot switch to WAL mode (journal mode is \(mode ?? "unknown"))")
                }
                try connection.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
                try migrate(connection, to: version)
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
}
