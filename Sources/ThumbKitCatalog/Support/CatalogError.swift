// SPDX-License-Identifier: Apache-2.0
/// Why a catalog operation failed. Every case carries the path it is about (a database or
/// JSON file, or a record reference such as `bug 3` or `bugs[2]`) and a lower-case reason without
/// a final period, so `description` is always the one line `<path>: <reason>`.
public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database file could not be opened or created (missing folder, permissions).
    case open(path: String, reason: String)
    /// The file is not an SQLite database, or SQLite found damage in it.
    case corrupt(path: String, reason: String)
    /// Another connection held the lock longer than the busy timeout.
    case locked(path: String, reason: String)
    /// The schema is newer than this build understands, or a migration failed.
    case schema(path: String, reason: String)
    /// A change broke a rule of the schema (foreign key, unique or check constraint).
    case constraint(path: String, reason: String)
    /// Any other SQLite failure (disk full, I/O error, misuse); the reason is SQLite's message.
    case database(path: String, reason: String)
    /// A record's values are not acceptable (a rating of 7, an empty title, an unsafe path).
    case invalidRecord(path: String, reason: String)
    /// The record, category or file that an operation names does not exist.
    case notFound(path: String, reason: String)
    /// A file could not be read or written.
    case io(path: String, reason: String)
    /// A JSON document (import file, recipe book) is malformed or has a bad value.
    case invalidDocument(path: String, reason: String)

    /// The database file, JSON file or record reference the error is about.
    public var path: String {
        switch self {
        case .open(let p, _), .corrupt(let p, _), .locked(let p, _), .schema(let p, _),
            .constraint(let p, _), .database(let p, _), .invalidRecord(let p, _), .notFound(let p, _),
            .io(let p, _), .invalidDocument(let p, _):
            return p
        }
    }

    /// The reason, lower-case, without the path.
    public var reason: String {
        switch self {
        case .open(_, let r), .corrupt(_, let r), .locked(_, let r), .schema(_, let r),
            .constraint(_, let r), .database(_, let r), .invalidRecord(_, let r), .notFound(_, let r),
            .io(_, let r), .invalidDocument(_, let r):
            return r
        }
    }

    /// `<path>: <reason>`, one line.
    public var description: String { "\(path): \(reason)" }
}
