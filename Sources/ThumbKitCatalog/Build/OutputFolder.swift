// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// The build's output folder on disk: sizes of files, removal of files and of the folders they
/// leave empty, stray temporary files, and files no catalog row describes.
///
/// Only the build's own sub-folders (`ownedFolders`) are ever swept, only files named as the
/// build names its outputs, never a record's source, and only in a folder the build's catalog
/// owns; anything else a user keeps in the output folder is left alone.
package struct OutputFolder: Sendable {
    /// The folders the build writes below the output folder.
    package static let ownedFolders = ["bugs", "foods", "app", "ratings"]

    /// A temporary file older than this is removed even when its writer's process id is in use
    /// (the id may have been reused).
    package static let staleTempAge: TimeInterval = 600

    /// The output folder (absolute, or relative to the current directory).
    package let root: String

    /// Whether anything may be removed here: false while the folder is not (yet) owned by the
    /// build's catalog (see `Ownership`), so the build then only adds files.
    var removalsAllowed = true

    /// Files that are some record's source (or a logo or rating icon), by device and inode: never
    /// removed, whatever their name or row says.
    var protectedFiles: Set<FileIdentity> = []

    /// Set for a build of some records, whose `protectedFiles` hold only their own sources and
    /// the assets: answers whether the file at an absolute path (`linked`: it has other hard
    /// links) is another record's source (see `guardOtherSources(_:)`). Nil when
    /// `protectedFiles` lists every source.
    var isOtherSource: (@Sendable (_ path: String, _ linked: Bool) -> Bool)?

    /// A file's device and inode (the same for every path or hard link to it).
    struct FileIdentity: Sendable, Hashable {
        let device: UInt64
        let inode: UInt64

        /// The identity of the file at `path` (symbolic links followed), or nil.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        /// The identity `info` describes.
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The output folder at `root`, with removals allowed and no protected files.
    package init(root: String) { self.root = root }

    /// `relative` inside the output folder.
    package func absolute(_ relative: String) -> String { root + "/" + relative }

    /// The size of the regular file at `relative`, or nil when there is none.
    package func fileSize(_ relative: String) -> Int? {
        var info = stat()
        guard stat(absolute(relative), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Throws unless the file at `relative` (if any) may be replaced: never one of
    /// `protectedFiles`, such as a source hard-linked under an output's name.
    package func requireReplaceable(_ relative: String) throws(CatalogError) {
        if isProtected(relative) {
            throw CatalogError.io(
                path: absolute(relative), reason: "is a source picture of the catalog; not overwritten")
        }
    }

    /// Creates the output folder if needed.
    package func create() throws(CatalogError) {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw CatalogError.io(path: root, reason: "cannot create the output folder")
        }
    }

    /// Removes the file at `relative` and then each parent folder it leaves empty (never the
    /// output folder itself). Returns whether a file was removed.
    @discardableResult
    package func remove(_ relative: String) -> Bool {
        guard removalsAllowed, OutputNaming.isSafeRelativePath(relative) else { return false }
        if isProtected(relative) { return false }
        let removed = unlink(absolute(relative)) == 0
        removeEmptyFolders(above: relative)
        return removed
    }

    /// Removes each folder above `relative` that is empty, innermost first, up to (never
    /// including) the output folder itself.
    package func removeEmptyFolders(above relative: String) {
        var folder = (relative as NSString).deletingLastPathComponent
        while !folder.isEmpty, rmdir(absolute(folder)) == 0 {
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// Removes temporary files (named as ``TemporaryFileName`` says, as `FileIO.writeAtomically`
    /// names them) anywhere below the output folder whose writer is gone: a process of this host
    /// that no longer exists, or the file is older than `staleTempAge` (the only test for another
    /// host's files, whose pids mean nothing here). A concurrent build's files in flight are kept.
    /// Returns how many were removed.
    @discardableResult
    package func removeStrayTempFiles(now: Date = Date()) -> Int {
        guard removalsAllowed else { return 0 }
        var count = 0
        // Only names that can be a temporary's are collected (a dot and `.tmp-`), not every output.
        for relative in files(in: [""], includeHidden: true, named: { $0.first == "." && $0.contains(".tmp-") }) {
            guard let temporary = TemporaryFileName(parsing: (relative as NSString).lastPathComponent) else { continue }
            let writerGone = temporary.writer == .gone
            let old = modificationDate(relative).map { now.timeIntervalSince($0) > Self.staleTempAge } ?? true
            if writerGone || old, unlink(absolute(relative)) == 0 { count += 1 }
        }
        return count
    }

    /// Paths relative to the output folder of the regular files below `folders` (relative; ""
    /// is the output folder itself), sorted. Symbolic links are neither listed nor followed;
    /// without `includeHidden`, dot-files and dot-folders are left out with all they hold.
    /// `named` keeps only the files whose name (without folder) it accepts.
    package func files(
        in folders: [String], includeHidden: Bool, named: (String) -> Bool = { _ in true }
    ) -> [String] {
        var result: [String] = []
        for folder in folders {
            collectFiles(
                below: folder.isEmpty ? root : absolute(folder), prefix: folder.isEmpty ? "" : folder + "/",
                includeHidden: includeHidden, named: named, into: &result)
        }
        return result.sorted()
    }

    /// Appends `prefix + name` for every regular file below `path` that `named` accepts,
    /// recursively. `readdir`'s entry type spares a `stat` per file (`FileManager`'s enumerator
    /// and an `lstat` per entry made the start of `watch` walk 200,000 outputs in about 26 s);
    /// `lstat` is asked only when the file system does not say.
    private func collectFiles(
        below path: String, prefix: String, includeHidden: Bool, named: (String) -> Bool, into result: inout [String]
    ) {
        guard let stream = opendir(path) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." || (!includeHidden && name.hasPrefix(".")) { continue }
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                var info = stat()
                guard lstat(path + "/" + name, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFREG: type = Int32(DT_REG)
                case S_IFDIR: type = Int32(DT_DIR)
                default: continue
                }
            }
            if type == Int32(DT_REG) {
                if named(name) { result.append(prefix + name) }
            } else if type == Int32(DT_DIR) {
                collectFiles(
                    below: path + "/" + name, prefix: prefix + name + "/", includeHidden: includeHidden, named: named,
                    into: &result)
            }
        }
    }

    /// When the file at `relative` last changed, or nil.
    package func modificationDate(_ relative: String) -> Date? {
        var info = stat()
        guard stat(absolute(relative), &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }
}
