// SPDX-License-Identifier: Apache-2.0
extension CatalogTransaction {
    /// The value of a setting, or nil.
    public func setting(_ key: String) throws(CatalogError) -> String? {
        try db.queryFirst("SELECT value FROM settings WHERE key = ?", [.text(key)]) { $0.string(0) }
    }

    /// Sets (or with nil, removes) a setting.
    public func setSetting(_ key: String, to value: String?) throws(CatalogError) {
        // The rating icons and the logo queue builds (the schema's triggers); waking the
        // workers for another key costs them one look.
        queuedWork()
        if let value {
            try db.run(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(key), .text(value)])
        } else {
            try db.run("DELETE FROM settings WHERE key = ?", [.text(key)])
        }
    }

    /// The values of `keys` that are set, in one query (a build reads its assets and the
    /// catalog id once per batch; a statement each was a round trip each on PostgreSQL).
    func settings(_ keys: [String]) throws(CatalogError) -> [String: String] {
        guard !keys.isEmpty else { return [:] }
        let sql = "SELECT key, value FROM settings WHERE key IN " + MultiRowInsert.tuple(keys.count)
        let pairs = try db.query(sql, keys.map { .text($0) }) {
            row throws(CatalogError) in (row.string(0), row.string(1))
        }
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    /// The rating icons, logo and images folder.
    public func assets() throws(CatalogError) -> CatalogAssets {
        CatalogAssets(settings: try settings(CatalogAssets.keys.map(\.key)))
    }

    /// Stores every field of `assets` (nil fields are removed).
    public func setAssets(_ assets: CatalogAssets) throws(CatalogError) {
        for (key, field) in CatalogAssets.keys { try setSetting(key, to: assets[keyPath: field]) }
    }

    /// Counts and min/max/average of bug ratings and output sizes, for a `show` view.
    public func summary() throws(CatalogError) -> CatalogSummary {
        func count(_ table: String) throws(CatalogError) -> Int {
            try db.queryFirst("SELECT COUNT(*) FROM \(table)") { $0.int(0) } ?? 0
        }
        func spread(_ column: String, _ table: String) throws(CatalogError) -> CatalogSummary.Spread? {
            try db.queryFirst(
                "SELECT COUNT(\(column)), MIN(\(column)), MAX(\(column)), AVG(\(column)), COALESCE(SUM(\(column)), 0) "
                    + "FROM \(table)"
            ) { row in
                row.int(0) == 0
                    ? nil
                    : CatalogSummary.Spread(
                        count: row.int(0), min: row.double(1), max: row.double(2), average: row.double(3),
                        total: row.double(4))
            } ?? nil
        }
        return CatalogSummary(
            bugCount: try count("bugs"), foodCount: try count("foods"), categoryCount: try count("categories"),
            outputCount: try count("outputs"), ratings: try spread("rating", "bugs"),
            outputBytes: try spread("bytes", "outputs"))
    }
}
