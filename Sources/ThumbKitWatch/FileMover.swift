// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// Moving a source file out of the inbox (to `.rejected/` or the `--move-done` folder).
enum FileMover {
    /// Renames `source` to `target`, making `target`'s folder first. Across file systems it
    /// copies (written atomically: the copy appears whole or not at all) and then removes the
    /// source, so the file is never lost, at worst briefly in both places.
    ///
    /// - Throws: `WatchError.io`; the source is then still where it was.
    static func move(_ source: String, to target: String) throws(WatchError) {
        let folder = (target as NSString).deletingLastPathComponent
        // Paths are PathBytes strings: every system call gets their exact bytes.
        if let reason = FileIO.makeFolders(folder) {
            throw .io(path: folder, reason: "cannot create folder: \(reason)")
        }
        if PathBytes.withCString(source, { s in PathBytes.withCString(target) { rename(s, $0) } }) == 0 { return }
        guard errno == EXDEV else {
            throw .io(path: source, reason: "cannot move to \(target): \(WatchError.errnoText())")
        }
        do {
            try FileIO.writeAtomically(try FileIO.read(source, maxBytes: Int.max), to: target)
        } catch {
            throw .io(path: source, reason: "cannot copy to \(target): \(error)")
        }
        _ = PathBytes.withCString(source) { unlink($0) }
    }
}
