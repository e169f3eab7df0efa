// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// The files that make up a catalog on disk: the database and SQLite's companions, which no
/// command may write over.
package enum CatalogFiles {
    /// The database and its `-wal`, `-shm` and `-journal` files.
    package static func all(of database: String) -> [String] {
        [database, database + "-wal", database + "-shm", database + "-journal"]
    }

    /// The catalog file that `path` names, if any: the same device and inode when both exist
    /// (this catches hard and symbolic links), else the same path once the folder is resolved.
    package static func match(_ path: String, database: String) -> String? {
        for file in all(of: database) {
            if FileIO.isSameFile(path, file) { return file }
            if resolved(path) == resolved(file) { return file }
        }
        return nil
    }

    /// `path` absolute, with its folder's links and `..` resolved on disk (the last component
    /// kept as given, since it may not exist yet).
    static func resolved(_ path: String) -> String {
        let absolute = PathResolution.resolve(path, against: FileManager.default.currentDirectoryPath)
        let folder = (absolute as NSString).deletingLastPathComponent
        let name = (absolute as NSString).lastPathComponent
        guard let real = realpath(folder, nil) else { return absolute }
        defer { free(real) }
        return (String(cString: real) as NSString).appendingPathComponent(name)
    }
}
