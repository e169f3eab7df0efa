// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 10: an index in the order a claim takes rows (`BuildQueueSQL`'s `claimable`: the
    /// app entry first, then the oldest entries), so a claim reads the first free rows of the
    /// index and stops at its limit. Without it every claim read and sorted the whole queue
    /// (on PostgreSQL 6.4 ms for a 20,000-row queue, against 0.05 ms with it), and claims run
    /// one at a time (the claim key), so that sort bounded the whole fleet's throughput.
    static let migration10 = """
        CREATE INDEX build_queue_claim_order ON build_queue (
            (CASE WHEN record_kind = 'app' THEN 0 ELSE 1 END), enqueued_at, record_kind, record_id);
        """

    /// Version 10 on PostgreSQL: the same index.
    static let postgresMigration10 = migration10
}
