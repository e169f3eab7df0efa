/// A value bound to a statement parameter, on either backend (`?` placeholders; PostgreSQL's
/// connection numbers them, see `PostgresPlaceholders`).
enum CatalogValue {
    case null
    case integer(Int)
    case real(Double)
    case text(String)

    /// `.text(s)` or `.null`.
    static func optional(_ text: String?) -> CatalogValue { text.map { .text($0) } ?? .null }
}
