// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
#if canImport(Glibc)
    import Glibc
#endif

/// Walks the inbox's watched folders (``InboxLayout/isWatchedFolder(_:)``) with
/// `opendir`/`readdir`, reporting entries one at a time, so a folder of any size is walked in
/// constant memory. Dot-entries are skipped without a word (temporary files, `.rejected`, the
/// lock file).
struct InboxScanner {
    /// The inbox folder.
    let root: String

    /// What the walk found.
    enum Visit {
        /// A folder the layout watches, about to be listed (watch it now, so nothing created
        /// during the listing is missed).
        case folder(String)
        /// A regular file.
        case file(String)
        /// Something left alone: a folder outside the layout, a symbolic link, a device.
        case skipped(String, reason: String)
    }

    /// Walks `folder` ("" for the whole inbox) and the watched folders below it. A dot-folder
    /// (`.rejected`) is not walked and not reported.
    func scan(_ folder: String = "", _ visit: (Visit) -> Void) {
        if folder.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { return }
        guard InboxLayout.isWatchedFolder(folder) else {
            visit(.skipped(folder, reason: "folder is outside the layout (bugs/, foods/<category>/)"))
            return
        }
        visit(.folder(folder))
        let full = folder.isEmpty ? root : root + "/" + folder
        // Vanished meanwhile: nothing to report.
        guard let dir = PathBytes.withCString(full, { opendir($0) }) else { return }
        defer { closedir(dir) }
        var subfolders: [String] = []
        while let entry = readdir(dir) {
            // Names are bytes: one that is not UTF-8 is carried as a PathBytes string and
            // ingested like any other.
            let name = Self.name(of: entry)
            guard !name.hasPrefix(".") else { continue }
            let path = folder.isEmpty ? name : folder + "/" + name
            switch Self.kind(of: entry, at: full + "/" + name) {
            case .folder:
                if InboxLayout.isWatchedFolder(path) {
                    subfolders.append(path)
                } else {
                    visit(.skipped(path, reason: "folder is outside the layout (bugs/, foods/<category>/)"))
                }
            case .file:
                visit(.file(path))
            case .link:
                visit(.skipped(path, reason: "symbolic links are not followed"))
            case .other:
                visit(.skipped(path, reason: "not a regular file"))
            }
        }
        // Subfolders are few (bugs, foods, one per category), so holding their names is cheap.
        for path in subfolders { scan(path, visit) }
    }

    private enum Kind { case folder, file, link, other }

    private static func kind(of entry: UnsafeMutablePointer<dirent>, at path: String) -> Kind {
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_REG): return .file
        case Int32(DT_LNK): return .link
        case Int32(DT_UNKNOWN):
            var info = stat()
            guard PathBytes.withCString(path, { lstat($0, &info) }) == 0 else { return .other }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            case S_IFLNK: return .link
            default: return .other
            }
        default: return .other
        }
    }

    /// The entry's name as a ``PathBytes`` string (its exact bytes, whatever they are).
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in PathBytes.string(raw.prefix { $0 != 0 }) }
    }
}
