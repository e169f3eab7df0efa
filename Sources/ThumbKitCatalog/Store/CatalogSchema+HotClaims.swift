// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 11: no index on `build_queue.lease_until`. No statement looked rows up by it (a
    /// claim reads `build_queue_claim_order`, version 10, and tests the lease as a filter; a
    /// renewal finds its rows by worker), but every claim, renewal and release changes it, and an
    /// update that changes an indexed column is never HOT: each claimed row was a new entry in
    /// all three of the table's indexes. Without it those updates touch no index and, with the
    /// free room PostgreSQL's `fillfactor` leaves on each page (version 9), stay on their page.
    /// A claim of 64 rows from a 20,000-row queue took 1.3–1.5 ms (`EXPLAIN ANALYZE`, about
    /// 1,150 buffers) with the index and 0.8–0.9 ms (about 470) without it.
    static let migration11 = "DROP INDEX build_queue_lease;"

    /// Version 11 on PostgreSQL: the same.
    static let postgresMigration11 = migration11
}
