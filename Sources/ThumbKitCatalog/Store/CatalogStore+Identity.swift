// SPDX-License-Identifier: Apache-2.0
extension CatalogTransaction {
    /// The settings key of the catalog's id.
    static let catalogIDKey = "catalog_id"

    /// The catalog's random id (32 hex digits), made and stored the first time it is asked for.
    /// A build writes it into the output folder's marker (`.thumbkit-catalog`) so that a folder
    /// is only ever swept by the catalog that claimed it.
    ///
    /// Created with `INSERT … ON CONFLICT DO NOTHING`, then read back: two writers making it at
    /// once under the shared write lock both read the one that was stored first (the second
    /// insert waits for the first's uniqueness check, then does nothing), so it is created once.
    public func catalogID() throws(CatalogError) -> String {
        if let id = try setting(Self.catalogIDKey) { return id }
        var generator = SystemRandomNumberGenerator()
        let id = (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
        try db.run(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
            [.text(Self.catalogIDKey), .text(id)])
        guard let stored = try setting(Self.catalogIDKey) else {
            throw CatalogError.database(path: databasePath, reason: "the catalog id was not stored")
        }
        return stored
    }
}

extension CatalogStore {
    /// The catalog's id (``CatalogTransaction/catalogID()``), read without the catalog's write
    /// lock when it exists, which it does after the first build: every one-record build asks
    /// for it, and on PostgreSQL a write transaction would serialise those with every worker's
    /// claims and commits. Made under the shared write lock (see the transaction's method).
    public func catalogID() throws -> String {
        if let id = try read({ try $0.setting(CatalogTransaction.catalogIDKey) }) { return id }
        return try write(mode: .shared) { try $0.catalogID() }
    }
}
