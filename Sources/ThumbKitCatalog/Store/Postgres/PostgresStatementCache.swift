// SPDX-License-Identifier: Apache-2.0
import CPostgres

/// The server-side prepared statements of one PostgreSQL session (`PQprepare`), by statement
/// text and parameter types: a statement run again is sent as its name and values only, and
/// the server skips parsing and planning it (an import runs a handful of statements 100,000
/// times). A statement is prepared the second time it is seen, so one-off statements (an `IN`
/// list of another length) cost no extra round trip and take no server memory; at most
/// `limit` are kept, and past it statements simply go unprepared (nothing is deallocated,
/// which could fail inside an aborted transaction).
///
/// Prepared statements belong to the session, not to a transaction: a rollback keeps them,
/// and a new session (`PostgresConnection.reconnect`) has none, so the cache is emptied then.
/// The server re-plans a prepared statement by itself when a table it uses changes.
struct PostgresStatementCache {
    /// A statement as the server would prepare it: its `$n` text and its parameters' type oids
    /// (0: the server infers it), as `PQprepare` fixes both.
    struct Key: Hashable {
        let sql: String
        let types: [Oid]
    }

    /// The most statements prepared in one session.
    static let limit = 256

    private var names: [Key: String] = [:]
    private var seenOnce: Set<Key> = []
    private var made = 0

    /// How many statements are prepared.
    var count: Int { names.count }

    /// The name of the prepared statement for `key`, or nil.
    func name(for key: Key) -> String? { names[key] }

    /// Whether `key` should be prepared now: it was seen before and there is room. Notes the
    /// first sight (the set of sightings is bounded too).
    mutating func shouldPrepare(_ key: Key) -> Bool {
        guard names.count < Self.limit else { return false }
        if seenOnce.remove(key) != nil { return true }
        if seenOnce.count >= 4 * Self.limit { seenOnce.removeAll() }
        seenOnce.insert(key)
        return false
    }

    /// A name no statement of this session has had.
    mutating func newName() -> String {
        made += 1
        return "thumbkit_\(made)"
    }

    /// Records that `key` was prepared as `name`.
    mutating func add(_ key: Key, name: String) { names[key] = name }

    /// Forgets every statement (the session that held them is gone).
    mutating func removeAll() {
        names.removeAll()
        seenOnce.removeAll()
    }
}
