// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// Why the watch folder could not start or go on. Every case carries the path it is about and a
/// lower-case reason, so `description` is the one line `<path>: <reason>`.
public enum WatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another watcher holds the inbox's lock file.
    case busy(path: String, reason: String)
    /// inotify could not be set up.
    case inotify(path: String, reason: String)
    /// A file or folder could not be read, created, moved or written.
    case io(path: String, reason: String)

    /// The file or folder the error is about.
    public var path: String {
        switch self {
        case .busy(let p, _), .inotify(let p, _), .io(let p, _): return p
        }
    }

    /// The reason, lower-case, without the path.
    public var reason: String {
        switch self {
        case .busy(_, let r), .inotify(_, let r), .io(_, let r): return r
        }
    }

    /// `<path>: <reason>`, one line.
    public var description: String { "\(path): \(reason)" }

    /// The current `errno` as lower-case text.
    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
