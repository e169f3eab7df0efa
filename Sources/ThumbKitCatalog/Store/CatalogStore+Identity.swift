// SPDX-License-Identifier: Apache-2.0
extension CatalogTransaction {
    /// The settings key of the catalog's id.
    static let catalogIDKey = "catalog_id"

    /// The catalog's random id (32 hex digits), made and stored the first time it is asked for.
    /// A build writes it into the output folder's marker (`.thumbkit-catalog`) so that a folder
    /// is only ever swept by the catalog that claimed it.
    public func catalogID() throws(CatalogError) -> String {
        if let id = try setting(Self.catalogIDKey) { return id }
        var generator = SystemRandomNumberGenerator()
        let id = (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
        try setSetting(Self.catalogIDKey, to: id)
        return id
    }
}

extension CatalogStore {
    /// The catalog's id (``CatalogTransaction/catalogID()``), read without the catalog's write
    /// lock when it exists, which it does after the first build: every one-record build asks
    /// for it, and on PostgreSQL a write transaction would serialise those with every worker's
    /// claims and commits.
    public func catalogID() throws -> String {
        if let id = try read({ try $0.setting(CatalogTransaction.catalogIDKey) }) { return id }
        return try write { try $0.catalogID() }
    }
}
