// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a folder the watcher writes to (`--out`, `--move-done`) overlaps the inbox: is it,
/// lies inside it, or contains it. Outputs written into the inbox look like inbox files
/// (`foods/<category>/<name>.jpg`) and would be ingested again, each making more outputs.
///
/// Folders are compared by (device, inode), not by name: symbolic links, `..` and bind mounts
/// cannot hide an overlap. A folder that does not exist yet is judged by its nearest existing
/// ancestor (it will be made there).
package enum FolderOverlap {
    /// How a folder relates to the inbox.
    package enum Relation: Sendable, Hashable {
        /// The same folder.
        case same
        /// Inside the inbox.
        case inside
        /// Contains the inbox.
        case contains
    }

    /// How `path` (which need not exist) relates to the existing folder `inbox`, or nil when
    /// they are apart (or `inbox` is not a folder). Relative paths are relative to the current
    /// directory.
    package static func relation(of path: String, to inbox: String) -> Relation? {
        let folder = chain(inbox)
        guard folder.exists, let inboxID = folder.identities.first else { return nil }
        let other = chain(path)
        if other.exists, other.identities.first == inboxID { return .same }
        if other.identities.contains(inboxID) { return .inside }
        if other.exists, let otherID = other.identities.first, folder.identities.contains(otherID) { return .contains }
        return nil
    }

    /// The identities of the folder at `path` (when it exists) and of every folder above it.
    private static func chain(_ path: String) -> (exists: Bool, identities: [FolderIdentity]) {
        var current = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var tail: [String] = []
        var real: String?
        while true {
            if let resolved = realpath(current, nil) {
                real = String(cString: resolved)
                free(resolved)
                break
            }
            let name = (current as NSString).lastPathComponent
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            tail.insert(name, at: 0)
            current = parent
        }
        // The missing part holds no links (it does not exist), so folding it lexically is exact.
        var walk = PathResolution.standardize(([real ?? "/"] + tail).joined(separator: "/"))
        var identities: [FolderIdentity] = []
        var exists = true
        while true {
            if let identity = FolderIdentity.of(walk) {
                identities.append(identity)
            } else if identities.isEmpty {
                exists = false
            }
            if walk == "/" { break }
            walk = (walk as NSString).deletingLastPathComponent
        }
        return (exists, identities)
    }
}
