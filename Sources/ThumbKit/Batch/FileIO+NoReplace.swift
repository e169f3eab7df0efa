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
        var failure: Int32 = 0
        if renaming.renameNoReplace(temp, path) != 0 {
            failure = errno
            if failure == EINVAL || failure == ENOSYS {
                // No RENAME_NOREPLACE here: link(2) publishes without replacing too.
                failure =
                    PathBytes.withCString(temp, { t in PathBytes.withCString(path) { link(t, $0) } }) == 0 ? 0 : errno
                if failure == 0 { _ = PathBytes.withCString(temp) { unlink($0) } }
            }
        }
        guard failure != 0 else { return }
        _ = PathBytes.withCString(temp) { unlink($0) }
        if failure == EEXIST { throw .exists(path: path) }
        throw .write(path: path, reason: String(cString: strerror(failure)).lowercased())
    }
}
