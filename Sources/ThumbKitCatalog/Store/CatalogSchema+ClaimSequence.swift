// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 7: a claim sequence for the build queue's fence.
    ///
    /// The fence used to compare only `worker_id`, and a change to a record resets its row's
    /// `attempts` to 0: a worker that lost a row (its lease ran out, or the record changed) and
    /// later claimed it again under the same id (another lane of the same worker, or the same
    /// worker after the record changed back) held the row once more, so its stale first build
    /// passed the fence (ABA). Every claim now takes the next value of one counter that only
    /// grows (`build_claim_sequence`, one row) and writes it to the row's `claim_seq`; the fence
    /// compares the pair. Rows are deleted when built, so the counter cannot live in them.
    static let migration7 = """
        ALTER TABLE build_queue ADD COLUMN claim_seq INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE build_claim_sequence (
            id   INTEGER PRIMARY KEY CHECK (id = 1),
            last INTEGER NOT NULL CHECK (last >= 0)
        );
        INSERT INTO build_claim_sequence (id, last) VALUES (1, 0);
        """

    /// Version 7 on PostgreSQL: the same column and counter.
    static let postgresMigration7 = """
        ALTER TABLE build_queue ADD COLUMN claim_seq BIGINT NOT NULL DEFAULT 0;
        CREATE TABLE build_claim_sequence (
            id   BIGINT PRIMARY KEY CHECK (id = 1),
            last BIGINT NOT NULL CHECK (last >= 0)
        );
        INSERT INTO build_claim_sequence (id, last) VALUES (1, 0);
        """
}
