// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// Moving a source file out of the inbox (to `.rejected/` or the `--move-done` folder).
enum FileMover {
    /// Whether anything, a dangling link or a folder included, is at `path` (a ``PathBytes``
    /// string).
    static func isTaken(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path) { lstat($0, &info) } == 0
    }

    /// Moves `source` to `target`, making `target`'s folder first. Nothing at `target` (a link
    /// included) is ever replaced, even something that appears while the file is moved: the move
    /// is a rename that fails when the name is taken (`renaming`, `renameat2(…,
    /// RENAME_NOREPLACE)`), else a `link`, else, across file systems, a copy written with
    /// `FileIO.writeNew` and then the source's removal. Returns false when `target` is taken; the
    /// source is then still where it was.
    ///
    /// - Throws: `WatchError.io`; the source is then still where it was.
    static func moveNew(
        _ source: String, to target: String, renaming: some NoReplaceRenaming = SystemNoReplaceRename()
    ) throws(WatchError) -> Bool {
        let folder = (target as NSString).deletingLastPathComponent
        if let reason = FileIO.makeFolders(folder) {
            throw .io(path: folder, reason: "cannot create folder: \(reason)")
        }
        let failure = FileIO.moveNoReplace(source, to: target, renaming: renaming)
        if failure == 0 { return true }
        if failure == EEXIST { return false }
        guard failure == EXDEV else {
            throw .io(
                path: source, reason: "cannot move to \(target): \(String(cString: strerror(failure)).lowercased())")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(source, maxBytes: Int.max)
        } catch {
            throw .io(path: source, reason: "cannot copy to \(target): \(error)")
        }
        do throws(NewFileError) {
            try FileIO.writeNew(bytes, to: target)
        } catch {
            if case .exists = error { return false }
            throw .io(path: source, reason: "cannot copy to \(target): \(error)")
        }
        _ = PathBytes.withCString(source) { unlink($0) }
        return true
    }
}
