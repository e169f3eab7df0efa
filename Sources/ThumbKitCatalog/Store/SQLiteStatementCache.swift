// SPDX-License-Identifier: Apache-2.0
/// A connection's compiled statements by SQL text (`SQLiteConnection.withStatement`). A
/// statement in use is taken out and put back after its reset, so two uses of one text at once
/// (a nested query) never share a statement. At most `limit` are kept: statements built from
/// varying text (an `IN` list of another length) would otherwise pile up; past the limit the
/// whole cache is dropped and refills with what is in use.
struct SQLiteStatementCache {
    /// The most statements kept.
    static let limit = 64

    private var byText: [String: SQLiteStatement] = [:]

    /// How many statements are kept.
    var count: Int { byText.count }

    /// The statement kept for `sql`, removed from the cache, or nil.
    mutating func take(_ sql: String) -> SQLiteStatement? { byText.removeValue(forKey: sql) }

    /// Keeps `statement` (reset) for `sql`, replacing (and so finalizing) any kept for it.
    mutating func put(_ statement: SQLiteStatement, for sql: String) {
        if byText[sql] == nil, byText.count >= Self.limit { byText.removeAll() }
        byText[sql] = statement
    }

    /// Finalizes every kept statement.
    mutating func removeAll() { byText.removeAll() }
}
