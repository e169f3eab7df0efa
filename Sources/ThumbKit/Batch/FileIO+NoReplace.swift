// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FileIO {
    /// Writes `bytes` as a new file at `path`, never replacing anything there: as
    /// ``writeAtomically(_:to:durable:)`` (a complete temporary file beside it, flushed when
    /// `durable`), but published with a rename that fails when the name is taken
    /// (`renameat2(…, RENAME_NOREPLACE)`). Where the file system refuses that flag (`EINVAL`, or
    /// `ENOSYS` from an old kernel) the temporary is hard-linked to `path` instead (`link` never
    /// replaces either) and then removed.
    ///
    /// Checking that the name is free and then renaming would be a race: a file or link that
    /// appears in between would be replaced. Here the check is the publishing call itself.
    ///
    /// - Throws: ``NewFileError/exists(path:)`` when anything (a link included, even a dangling
    ///   one) is at `path`, which is then left exactly as it was; ``NewFileError/write(path:reason:)``
    ///   for any other failure. No temporary file is left behind either way.
    package static func writeNew(
        _ bytes: [UInt8], to path: String, durable: Bool = true,
        renaming: some NoReplaceRenaming = SystemNoReplaceRename()
    ) throws(NewFileError) {
        let temp: String
        do {
            temp = try writeTemporary(bytes, for: path, durable: durable, faults: NoWriteFaults())
        } catch {
            throw .write(path: path, reason: error.reason)
        }
        let failure = moveNoReplace(temp, to: path, renaming: renaming)
        guard failure != 0 else { return }
        _ = PathBytes.withCString(temp) { unlink($0) }
        if failure == EEXIST { throw .exists(path: path) }
        throw .write(path: path, reason: String(cString: strerror(failure)).lowercased())
    }

    /// Moves `source` to `target` unless something (a link included) is at `target`: a rename
    /// that fails when the name is taken (`renaming`), or where the file system refuses that
    /// (`EINVAL`, `ENOSYS`) a `link`, which never replaces either, and then an `unlink` of
    /// `source`. Returns 0, or the `errno` of the failure (`EEXIST` when `target` is taken,
    /// `EXDEV` across file systems); `source` is then still where it was.
    package static func moveNoReplace(
        _ source: String, to target: String, renaming: some NoReplaceRenaming = SystemNoReplaceRename()
    ) -> Int32 {
        if renaming.renameNoReplace(source, target) == 0 { return 0 }
        let failure = errno
        guard failure == EINVAL || failure == ENOSYS else { return failure }
        guard PathBytes.withCString(source, { s in PathBytes.withCString(target) { link(s, $0) } }) == 0 else {
            return errno
        }
        _ = PathBytes.withCString(source) { unlink($0) }
        return 0
    }
}
