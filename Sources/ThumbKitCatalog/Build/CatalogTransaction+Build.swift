// SPDX-License-Identifier: Apache-2.0
extension CatalogTransaction {
    /// Whether any output row has this path (shared files such as rating strips have several).
    public func isOutputPathReferenced(_ path: String) throws(CatalogError) -> Bool {
        try db.queryFirst("SELECT 1 FROM outputs WHERE path = ? LIMIT 1", [.text(path)]) { _ in true } ?? false
    }

    /// Every distinct output path.
    public func outputPaths() throws(CatalogError) -> Set<String> {
        Set(try db.query("SELECT DISTINCT path FROM outputs") { $0.string(0) })
    }
}
