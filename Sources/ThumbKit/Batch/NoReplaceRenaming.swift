// SPDX-License-Identifier: Apache-2.0
import CThumbKit

/// A seam in ``FileIO/writeNew(_:to:durable:renaming:)``: the rename that publishes a written
/// temporary file under its name without ever replacing what is there. It runs after the
/// temporary is complete and before anything appears under the name, which is exactly the
/// window in which a foreign file or a link may turn up; tests put one there through this seam,
/// and make the call fail as a file system without `RENAME_NOREPLACE` does (to reach the
/// `link` fallback). Everyone else uses ``SystemNoReplaceRename``.
package protocol NoReplaceRenaming: Sendable {
    /// Renames `from` to `to` (``PathBytes`` strings) unless something, a link included, is at
    /// `to`: 0, or -1 with `errno` set as `renameat2(…, RENAME_NOREPLACE)` sets it (`EEXIST`
    /// when `to` exists, `EINVAL` or `ENOSYS` where the file system or kernel cannot).
    func renameNoReplace(_ from: String, _ to: String) -> Int32
}

/// `renameat2(…, RENAME_NOREPLACE)` through the C shim. The default.
package struct SystemNoReplaceRename: NoReplaceRenaming {
    package init() {}

    package func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        PathBytes.withCString(from) { f in PathBytes.withCString(to) { tk_rename_noreplace(f, $0) } }
    }
}
