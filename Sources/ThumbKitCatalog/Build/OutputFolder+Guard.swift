// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// Which files a build must never replace or remove, at a cost that does not grow with the
/// catalog for a build of some records.
extension OutputFolder {
    /// For a build of some records: before a file is replaced or removed, asks `store` whether
    /// its path (as given, and with symbolic links resolved) is another record's image, and, for
    /// a file with other hard links, whether its content is (by the recorded hashes): one or two
    /// indexed queries per file (`CatalogTransaction.isRecordImage(anyOf:)`,
    /// `isRecordImage(sha256:)`). A catalog that cannot be asked, or a linked file that cannot
    /// be read, counts as a yes.
    ///
    /// Why the content: every file a build writes is a fresh file renamed into place, with one
    /// link, but a second link is not only a source linked in under an output's name (whose
    /// bytes have the hash the catalog recorded for that source): `thumbkit site` links the
    /// outputs it publishes, and a backup may. Refusing every linked file kept each output a
    /// `catalog rename` or `set-image` replaced beside the new ones after a `site`, until the
    /// next full build. (A full build knows every source's identity: `protectedFiles`.)
    mutating func guardOtherSources(_ store: CatalogStore) {
        isOtherSource = { path, linked in
            let spellings = Set([path, CatalogBuilder.realPath(path)].compactMap { $0 })
            var sha256: String?
            if linked {
                guard let bytes = try? FileIO.read(path) else { return true }
                sha256 = ContentHash.sha256(of: bytes)
            }
            let known = try? store.read { tx in
                if try tx.isRecordImage(anyOf: spellings.sorted()) { return true }
                guard let sha256 else { return false }
                return try tx.isRecordImage(sha256: sha256)
            }
            return known ?? true
        }
    }

    /// Whether the file at `relative` must be left alone: it is one of `protectedFiles`, or,
    /// when not every source is known (`isOtherSource` set), it is some record's source by its
    /// path or, having other hard links, by its content.
    func isProtected(_ relative: String) -> Bool {
        let path = absolute(relative)
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        if protectedFiles.contains(FileIdentity(info)) { return true }
        guard let isOtherSource else { return false }
        let linked = (info.st_mode & S_IFMT) == S_IFREG && info.st_nlink > 1
        return isOtherSource(PathResolution.resolve(path, against: FileManager.default.currentDirectoryPath), linked)
    }
}
