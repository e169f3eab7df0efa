// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension BatchRunner {
    /// Why one file of a batch gets no outputs before anything is read (see ``plan(_:subfolders:)``).
    struct PlanError: Error, CustomStringConvertible {
        let description: String
        init(_ text: String) { description = text }
    }

    /// The name `%s` gets for the standard input (`-`).
    static let standardInputName = "stdin"

    /// An existing file's device and inode.
    struct FileKey: Hashable {
        var device: UInt64
        var inode: UInt64

        init?(_ path: String) {
            var st = stat()
            guard PathBytes.withCString(path, { stat($0, &st) }) == 0 else { return nil }
            (device, inode) = (UInt64(st.st_dev), UInt64(st.st_ino))
        }
    }

    /// `path` made absolute with every link resolved in the part that exists, and `.`/`..`
    /// applied to the rest, so two spellings of one place compare equal before it exists.
    static func resolvedPath(_ path: String) -> String {
        var head = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var tail: [String] = []
        let absolute = path.hasPrefix("/")
        while true {
            let candidate = (absolute ? "/" : "") + head.joined(separator: "/")
            if let real = realPath(candidate.isEmpty ? "." : candidate) {
                var parts = real.split(separator: "/").map(String.init)
                for part in tail {
                    if part == "." { continue }
                    if part == ".." { _ = parts.popLast() } else { parts.append(part) }
                }
                return "/" + parts.joined(separator: "/")
            }
            guard let last = head.popLast() else { return path }
            tail.insert(last, at: 0)
        }
    }

    /// `realpath(3)` of an existing path, as a ``PathBytes`` string.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(
            UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
    }
}
