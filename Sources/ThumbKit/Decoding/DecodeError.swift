// SPDX-License-Identifier: Apache-2.0
/// Why a file could not be decoded. Every case carries the file's path and a reason; for a
/// failure inside libpng or libjpeg the reason is the library's own message.
public enum DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read (missing, permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The file has no bytes.
    case empty(path: String)
    /// The bytes are not in any format ThumbKit reads (PNG, JPEG, WebP, HEIC, AVIF).
    case notAnImage(path: String, reason: String)
    /// A valid file the decoder cannot handle (12-bit or lossless JPEG, for example).
    case unsupported(path: String, reason: String)
    /// The codec rejected the data.
    case corrupt(path: String, reason: String)
    /// The header declares more than the configured limits allow; nothing was allocated.
    case overLimit(path: String, reason: String)
    /// The codec only warned, but warnings were made fatal (`--fail-on warning`).
    case warning(path: String, reason: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let p, _), .notAnImage(let p, _), .unsupported(let p, _), .corrupt(let p, _),
            .overLimit(let p, _), .warning(let p, _):
            return p
        case .empty(let p):
            return p
        }
    }

    /// The reason, lower-case, without the path.
    public var reason: String {
        switch self {
        case .unreadable(_, let r), .notAnImage(_, let r), .unsupported(_, let r), .corrupt(_, let r),
            .overLimit(_, let r), .warning(_, let r):
            return r
        case .empty:
            return "empty file"
        }
    }

    /// `<path>: <reason>`: the one line a batch prints for this file.
    public var description: String { "\(path): \(reason)" }

    /// The same error about another path (used when bytes were decoded from memory).
    public func at(path newPath: String) -> DecodeError {
        switch self {
        case .unreadable(_, let r): return .unreadable(path: newPath, reason: r)
        case .empty: return .empty(path: newPath)
        case .notAnImage(_, let r): return .notAnImage(path: newPath, reason: r)
        case .unsupported(_, let r): return .unsupported(path: newPath, reason: r)
        case .corrupt(_, let r): return .corrupt(path: newPath, reason: r)
        case .overLimit(_, let r): return .overLimit(path: newPath, reason: r)
        case .warning(_, let r): return .warning(path: newPath, reason: r)
        }
    }
}
