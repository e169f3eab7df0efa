// SPDX-License-Identifier: Apache-2.0
/// A bug or food exactly as a writer has just written it, in the transaction that also claims
/// its build (`CatalogBuilder.claimOwn(_:queue:worker:lease:in:)`): the build's snapshot takes
/// the record from here instead of reading it again, and for a record `created` there, reads
/// no output rows (any row of an earlier record with its id went with that record).
package enum WrittenRecord: Sendable {
    case bug(Bug, created: Bool)
    case food(Food, created: Bool)

    /// `bug <id>` or `food <id>`.
    package var ref: RecordRef {
        switch self {
        case .bug(let bug, _): return bug.ref
        case .food(let food, _): return food.ref
        }
    }

    /// Whether the writer created the record in this transaction.
    var created: Bool {
        switch self {
        case .bug(_, let created), .food(_, let created): return created
        }
    }
}
