// SPDX-License-Identifier: Apache-2.0
/// Why ``FileIO/writeNew(_:to:durable:renaming:)`` did not put a new file under its name.
/// Either way nothing under the name was touched and no temporary file is left.
package enum NewFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Something (a file, a folder, a link) is already at `path`; it was left as it was.
    case exists(path: String)
    /// Writing or publishing the file failed (disk full, permissions, a missing folder).
    case write(path: String, reason: String)

    package var path: String {
        switch self {
        case .exists(let p), .write(let p, _): return p
        }
    }

    package var reason: String {
        switch self {
        case .exists: return "something is already at this name; left alone"
        case .write(_, let r): return r
        }
    }

    /// `<path>: <reason>`.
    package var description: String { "\(path): \(reason)" }
}
