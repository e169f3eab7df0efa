// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Which files a build must never replace or remove, at a cost that does not grow with the
/// catalog for a build of some records.
extension OutputFolder {
    /// For a build of some records: before a file is replaced or removed, asks `store` whether
    /// its path (as given, and with symbolic links resolved) is another record's image, one
    /// indexed query per file (`CatalogTransaction.isRecordImage(anyOf:)`). A catalog that
    /// cannot be asked counts as a yes.
    mutating func guardOtherSources(_ store: CatalogStore) {
        isOtherSource = { path in
            let spellings = Set([path, CatalogBuilder.realPath(path)].compactMap { $0 })
            return (try? store.read { try $0.isRecordImage(anyOf: spellings.sorted()) }) ?? true
        }
    }

    /// Whether the file at `relative` must be left alone: it is one of `protectedFiles`, or,
    /// when not every source is known (`isOtherSource` set), it has other hard links (every
    /// file a build writes is a fresh file renamed into place, with one link) or it is some
    /// record's source by its path.
    func isProtected(_ relative: String) -> Bool {
        let path = absolute(relative)
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        if protectedFiles.contains(FileIdentity(info)) { return true }
        guard let isOtherSource else { return false }
        if (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink > 1 { return true }
        return isOtherSource(PathResolution.resolve(path, against: FileManager.default.currentDirectoryPath))
    }
}
