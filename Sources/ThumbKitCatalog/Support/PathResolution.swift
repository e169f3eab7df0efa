// SPDX-License-Identifier: Apache-2.0
import Foundation

/// How the import and export turn the paths in a JSON file into stored paths and back.
package enum PathResolution {
    /// `path` made absolute against `base` (a relative path is relative to `base`), with `.`
    /// and `..` folded lexically.
    package static func resolve(_ path: String, against base: String) -> String {
        let joined = path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
        return standardize(joined)
    }

    /// `path` relative to `base` when it lies inside `base`, else `path` unchanged.
    package static func relative(_ path: String, to base: String) -> String {
        let folder = standardize(base)
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let full = standardize(path)
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : path
    }

    /// An absolute path with `.`, `..` and repeated `/` removed, without touching the disk
    /// (symbolic links are kept, so a stored path is the one the user gave).
    package static func standardize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The folder a file is in, made absolute against the current directory.
    package static func folder(of file: String) -> String {
        let absolute = file.hasPrefix("/") ? file : resolve(file, against: FileManager.default.currentDirectoryPath)
        return (absolute as NSString).deletingLastPathComponent
    }
}
