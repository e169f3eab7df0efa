// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The sweep's two halves: the walk that finds candidates (no lock held, it may take seconds),
/// and the removal that checks each again (under the catalog's write lock, held briefly).
extension OutputFolder {
    /// The files in the owned folders that a sweep would remove: named as the build names its
    /// outputs (`isBuiltOutputPath`), not in `referenced` nor `keep`, and last changed before
    /// `before` (newer ones may belong to a build still running). Any other file is not the
    /// build's and is never a candidate. Hidden files are left to `removeStrayTempFiles`. Only
    /// reads the folder.
    package func sweepCandidates(referenced: Set<String>, keep: Set<String>, before: Date) -> [String] {
        files(in: Self.ownedFolders, includeHidden: false).filter { relative in
            guard !referenced.contains(relative), !keep.contains(relative), Self.isBuiltOutputPath(relative),
                let changed = modificationDate(relative)
            else { return false }
            return changed < before
        }
    }

    /// Removes those of `candidates` (from `sweepCandidates`) that are, now, still not in
    /// `referenced`, not a protected file, and a regular file last changed before `before`,
    /// and the folders they leave empty. The file is reached without following any symbolic
    /// link, its own or a folder's on the way: a folder swapped for a link since the walk leads
    /// nowhere, so a user's file elsewhere with an output's name is never reached. Returns how
    /// many were removed.
    package func removeUnreferenced(_ candidates: [String], referenced: Set<String>, before: Date) -> Int {
        guard removalsAllowed else { return 0 }
        var count = 0
        for relative in candidates
        where !referenced.contains(relative) && OutputNaming.isSafeRelativePath(relative) && !isProtected(relative) {
            guard unlinkRegularFile(relative, changedBefore: before) else { continue }
            count += 1
            removeEmptyFolders(above: relative)
        }
        return count
    }

    /// Unlinks the regular file at `relative` if it last changed before `before`, opening each
    /// folder on the way with `O_NOFOLLOW` and checking the file with `AT_SYMLINK_NOFOLLOW`
    /// in the folder so opened. Returns whether it was removed.
    private func unlinkRegularFile(_ relative: String, changedBefore before: Date) -> Bool {
        var components = relative.split(separator: "/").map(String.init)
        guard let name = components.popLast() else { return false }
        var folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return false }
        defer { close(folder) }
        for component in components {
            let next = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return false }
            close(folder)
            folder = next
        }
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return false
        }
        let changed = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        guard changed < before else { return false }
        return unlinkat(folder, name, 0) == 0
    }
}
