// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FileIO {
    /// Removes the temporary files that writers killed part-way (SIGKILL, power loss, a crash)
    /// left in `folder`: the dot-files `writeAtomically` names (``TemporaryFileName``), when
    /// their writer was a process of this host that no longer exists. Temporaries of live
    /// writers (another thumbkit working in the same folder) and of other hosts (shared storage)
    /// are left alone; a pid that has been reused keeps its file until a later sweep. Nothing
    /// else is ever touched.
    ///
    /// - Returns: the paths removed (empty when the folder does not exist).
    @discardableResult
    package static func removeStaleTemporaries(in folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names {
            guard TemporaryFileName(parsing: name)?.writer == .gone else { continue }
            let path = (folder as NSString).appendingPathComponent(name)
            var st = stat()
            // Only regular files: a folder that happens to match the pattern is not ours.
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }
}
