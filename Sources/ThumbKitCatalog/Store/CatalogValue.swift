// SPDX-License-Identifier: Apache-2.0
/// A value bound to a statement parameter, on either backend (`?` placeholders; PostgreSQL's
/// connection numbers them, see `PostgresPlaceholders`).
package enum CatalogValue {
    case null
    case integer(Int)
    case real(Double)
    case text(String)

    /// `.text(s)` or `.null`.
    package static func optional(_ text: String?) -> CatalogValue { text.map { .text($0) } ?? .null }
}
