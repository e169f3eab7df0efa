// SPDX-License-Identifier: Apache-2.0
extension CatalogTransaction {
    /// Whether any bug or food has one of `paths` as its image (the rating icons and logo are
    /// not records: see `assets()`). Indexed (`bugs_image_path`, `foods_image_path`), so a build
    /// of one record can ask it about each file it would replace or remove.
    public func isRecordImage(anyOf paths: [String]) throws(CatalogError) -> Bool {
        guard !paths.isEmpty else { return false }
        let marks = Array(repeating: "?", count: paths.count).joined(separator: ", ")
        let values = paths.map { CatalogValue.text($0) }
        return try db.queryFirst(
            """
            SELECT 1 FROM bugs WHERE image_path IN (\(marks))
            UNION ALL SELECT 1 FROM foods WHERE image_path IN (\(marks))
            LIMIT 1
            """, values + values
        ) { _ in true } ?? false
    }

    /// Whether any bug or food has an image whose recorded hash is `sha256`. Indexed
    /// (`bugs_image_sha256`, `foods_image_sha256`), so a build of one record can ask it about a
    /// file it would replace or remove that has other hard links.
    public func isRecordImage(sha256: String) throws(CatalogError) -> Bool {
        try db.queryFirst(
            """
            SELECT 1 FROM bugs WHERE image_sha256 = ?
            UNION ALL SELECT 1 FROM foods WHERE image_sha256 = ?
            LIMIT 1
            """, [.text(sha256), .text(sha256)]
        ) { _ in true } ?? false
    }
}
