// SPDX-License-Identifier: Apache-2.0
/// The build queue's statements, for each SQL dialect the catalog speaks (`CatalogDialect`).
/// Everything the queue does is here, so the places where SQLite and PostgreSQL differ (how a
/// claim takes its rows, the fence's row lock, the statements over arrays) sit side by side;
/// the rest is plain SQL both accept. Parameters are `?` (PostgreSQL's connection numbers
/// them, see `PostgresPlaceholders`); times are epoch milliseconds.
package struct BuildQueueSQL: Sendable {
    /// The database the statements are for (the catalog's one dialect enum).
    package let dialect: CatalogDialect

    package init(dialect: CatalogDialect = .sqlite) {
        self.dialect = dialect
    }

    /// Which rows a claim may take (parameters: now, max attempts, now): free or lease-expired,
    /// attempts left, and a bug only while no worker holds the app entry (a bug's rating rows
    /// point at the shared strips the app entry makes). The app entry comes first, then the
    /// oldest entries: the order of the index `build_queue_claim_order` (schema version 10),
    /// which a claim reads up to its limit, so the two must stay the same.
    private static let claimable = """
        FROM build_queue q
        WHERE (q.lease_until IS NULL OR q.lease_until <= ?) AND q.attempts < ?
          AND (q.record_kind <> 'bug' OR NOT EXISTS (
                SELECT 1 FROM build_queue a
                WHERE a.record_kind = 'app' AND a.worker_id IS NOT NULL AND a.lease_until > ?))
        ORDER BY CASE WHEN q.record_kind = 'app' THEN 0 ELSE 1 END, q.enqueued_at, q.record_kind, q.record_id
        """

    /// How a claim is made: either one statement returning the claimed rows, or a SELECT of
    /// candidates, the next claim sequence, then one `markClaimed` per row, all inside one
    /// write transaction. Either way every row a claim takes gets the next value of
    /// `build_claim_sequence` as its `claim_seq` (schema version 7), which the fence compares.
    package enum Claim: Sendable {
        /// PostgreSQL: `UPDATE … WHERE key IN (SELECT … FOR UPDATE SKIP LOCKED LIMIT n)
        /// RETURNING …` (parameters: worker, lease until, now, max attempts, now, limit), with the
        /// counter's increment in the same statement. Rows another transaction is claiming are
        /// skipped, not waited for. RETURNING keeps no order, so the claimed rows are sorted
        /// again as `claimable` sorts them. Columns: kind, id, attempts, claim_seq.
        case returning(String)
        /// SQLite: a write transaction (`BEGIN IMMEDIATE`) already excludes every other writer,
        /// so a plain `SELECT … LIMIT n` (parameters: now, max attempts, now, limit; columns:
        /// kind, id, attempts), then `sequence` (no parameters; the new claim_seq), then an
        /// UPDATE per row is just as exclusive.
        case selectThenUpdate(select: String, sequence: String, update: String)
    }

    /// The claim statement(s) for this dialect.
    package var claim: Claim {
        switch dialect {
        case .postgres:
            return .returning(
                """
                WITH sequence AS (\(Self.nextSequence)),
                claimed AS (
                    UPDATE build_queue SET worker_id = ?, lease_until = ?, attempts = attempts + 1,
                        claim_seq = (SELECT last FROM sequence)
                    WHERE (record_kind, record_id) IN (
                        SELECT q.record_kind, q.record_id \(Self.claimable)
                        LIMIT ? FOR UPDATE SKIP LOCKED)
                    RETURNING record_kind, record_id, attempts, claim_seq, enqueued_at)
                SELECT record_kind, record_id, attempts, claim_seq FROM claimed
                ORDER BY CASE WHEN record_kind = 'app' THEN 0 ELSE 1 END, enqueued_at, record_kind, record_id
                """)
        case .sqlite:
            return .selectThenUpdate(
                select: "SELECT q.record_kind, q.record_id, q.attempts \(Self.claimable) LIMIT ?",
                sequence: Self.nextSequence, update: Self.markClaimed)
        }
    }

    /// Takes the next claim sequence: the counter only ever grows, so no two claims of a record
    /// share one, whatever was deleted or reset in between.
    static let nextSequence = "UPDATE build_claim_sequence SET last = last + 1 WHERE id = 1 RETURNING last"

    /// Marks one row claimed (parameters: worker, lease until, claim sequence, kind, id).
    static let markClaimed = """
        UPDATE build_queue SET worker_id = ?, lease_until = ?, attempts = attempts + 1, claim_seq = ?
        WHERE record_kind = ? AND record_id = ?
        """

    /// How a writer claims the record it has just changed, in the transaction that changed it
    /// (`BuildQueue.claimOwn`): the record's row (queued by the change's trigger, or made here
    /// when the change queued nothing) is taken for the writer under a fresh claim sequence,
    /// with one attempt, so no worker builds it while the writer does, and a worker that held
    /// it under an older claim is fenced out. Either way one `build_claim_sequence` step.
    package enum OwnClaim: Sendable {
        /// PostgreSQL: one statement, the counter's increment inside it (parameters: kind, id,
        /// worker, lease until, enqueued at; column: claim_seq).
        case returning(String)
        /// SQLite: `sequence` (no parameters; the new claim_seq), then `upsert` (parameters:
        /// kind, id, worker, lease until, enqueued at, claim sequence).
        case sequenceThenUpsert(sequence: String, upsert: String)
    }

    /// The own-claim statement(s) for this dialect.
    package var ownClaim: OwnClaim {
        func upsert(_ sequence: String) -> String {
            """
            INSERT INTO build_queue (record_kind, record_id, worker_id, lease_until, attempts, enqueued_at, claim_seq)
            VALUES (?, ?, ?, ?, 1, ?, \(sequence))
            ON CONFLICT (record_kind, record_id) DO UPDATE SET worker_id = excluded.worker_id,
                lease_until = excluded.lease_until, attempts = 1, last_error = NULL, claim_seq = excluded.claim_seq
            RETURNING claim_seq
            """
        }
        switch dialect {
        case .postgres:
            return .returning("WITH sequence AS (\(Self.nextSequence))\n" + upsert("(SELECT last FROM sequence)"))
        case .sqlite:
            return .sequenceThenUpsert(sequence: Self.nextSequence, upsert: upsert("?"))
        }
    }

    /// Queues a record, or frees its row and resets its attempts when it is there already
    /// (parameters: kind, id, enqueued at). The same upsert the schema's triggers run.
    package let enqueue = """
        INSERT INTO build_queue (record_kind, record_id, attempts, enqueued_at) VALUES (?, ?, 0, ?)
        ON CONFLICT (record_kind, record_id) DO UPDATE SET worker_id = NULL, lease_until = NULL,
            attempts = 0, last_error = NULL, enqueued_at = excluded.enqueued_at
        """

    /// A full build's planning pass: queue a stale record; a row nobody holds (free, failed and
    /// waiting, or out of attempts) becomes claimable now with its attempts reset, because an
    /// explicit `build` tries every stale record again. A row a worker holds under a live lease
    /// is left to that worker (parameters: kind, id, enqueued at, now).
    package let plan = """
        INSERT INTO build_queue (record_kind, record_id, attempts, enqueued_at) VALUES (?, ?, 0, ?)
        \(BuildQueueSQL.planConflict)
        """

    /// The conflict clause of both `plan`s: a row no live lease holds is reset, unless it is
    /// already free and fresh (no worker, lease, attempt or error), where the reset would change
    /// nothing and still write a new row version: a first build's planning rewrote every row
    /// the import had just queued (20,000 updates, about 0.3 s, and as many dead rows).
    private static let planConflict = """
        ON CONFLICT (record_kind, record_id) DO UPDATE SET worker_id = NULL, lease_until = NULL,
            attempts = 0, last_error = NULL
        WHERE (build_queue.worker_id IS NULL OR build_queue.lease_until <= ?)
          AND (build_queue.worker_id IS NOT NULL OR build_queue.lease_until IS NOT NULL
               OR build_queue.attempts <> 0 OR build_queue.last_error IS NOT NULL)
        """

    /// Removes the row of a record the planning pass found current, unless a worker holds it
    /// under a live lease (parameters: kind, id, now). Safe because planning reads the records
    /// and changes the queue in one write transaction: a later change queues the record again.
    package let dropCurrent = """
        DELETE FROM build_queue
        WHERE record_kind = ? AND record_id = ? AND (worker_id IS NULL OR lease_until <= ?)
        """

    /// Extends the leases of every row a worker holds (parameters: lease until, worker). A row
    /// another worker took after this one's lease ran out is not touched.
    package let renew = "UPDATE build_queue SET lease_until = ? WHERE worker_id = ?"

    /// The fence, first in a built record's row-commit transaction: is the row still this
    /// claim's, the same worker *and* the same claim sequence? (parameters: kind, id, worker,
    /// claim sequence; a row back means yes). A worker id alone is not enough: the same worker
    /// may have lost the row and claimed it again since. PostgreSQL locks the row until the
    /// commit (`FOR UPDATE`), so a concurrent change to the record waits for it and then queues
    /// the record again; SQLite's write transaction already excludes every writer.
    package var fence: String {
        let select = "SELECT attempts FROM build_queue WHERE record_kind = ? AND record_id = ? AND \(Self.held)"
        switch dialect {
        case .postgres: return select + " FOR UPDATE"
        case .sqlite: return select
        }
    }

    /// Row-locks a record's queue row, if it has one, until the transaction ends (parameters:
    /// kind, id): PostgreSQL only (nil on SQLite, whose write transaction excludes every other
    /// writer). A writer that changes a record under the shared lock takes it before the
    /// change, so that it meets a worker's fenced commit of the record in the order that commit
    /// takes its locks (queue row, then the record), never the other way round.
    package var lockRow: String? {
        switch dialect {
        case .postgres: return "SELECT 1 FROM build_queue WHERE record_kind = ? AND record_id = ? FOR UPDATE"
        case .sqlite: return nil
        }
    }

    /// The statements that take many records at once, over PostgreSQL arrays (each parameter a
    /// PostgreSQL array literal: kinds `{"food",…}`, ids, claim sequences). SQLite has none
    /// (`arrays` is nil): it runs the per-record statements in a loop, in-process calls inside
    /// one write transaction that already excludes every other writer.
    package struct ArrayStatements: Sendable {
        /// The batch commit's fence (`CommitBatch`): of the rows named by three arrays
        /// (parameters: kinds, ids, claim sequences, then the worker), the ones this worker
        /// still holds under that claim, locked `FOR UPDATE` in key order, so two batches over
        /// overlapping records lock them in the same order and cannot deadlock. Columns: kind,
        /// id. Per record: `fence`.
        ///
        /// The named keys are sorted first and each row is then found (and locked) by its
        /// primary key, in that order: a nested loop the planner cannot turn round. Written as
        /// a join of the queue with the arrays, the plan depended on the statistics: with the
        /// queue analyzed, PostgreSQL 15 chose a hash join over a scan of the whole queue, whose
        /// cost grows with the queue (1.05 ms for 64 keys among 20,000 rows, 0.34 ms this way,
        /// `EXPLAIN ANALYZE`, 2026-12-07). In the builds measured that day both forms cost the
        /// same, 0.24–0.31 ms a batch: there the join got an index plan.
        package let fence = """
            SELECT q.record_kind, q.record_id
            FROM (
              SELECT * FROM unnest(?::text[], ?::bigint[], ?::bigint[]) AS f(kind, id, seq)
              ORDER BY kind COLLATE "C", id
            ) f
            CROSS JOIN LATERAL (
              SELECT record_kind, record_id FROM build_queue
              WHERE record_kind = f.kind AND record_id = f.id AND claim_seq = f.seq AND worker_id = ?
              FOR UPDATE
            ) q
            """

        /// `settleBuilt` for every built record of a batch whose fence held (parameters: kinds,
        /// ids).
        package let settle = """
            DELETE FROM build_queue q USING unnest(?::text[], ?::bigint[]) AS f(kind, id)
            WHERE q.record_kind = f.kind AND q.record_id = f.id
            """

        /// `plan` for every stale record of a planning pass (parameters: enqueued at, kinds,
        /// ids, now). Each record appears once, so the upsert never meets a row twice. One
        /// statement per record was 2,000 round trips for 2,000 records, inside the exclusive
        /// lock.
        package let plan = """
            INSERT INTO build_queue (record_kind, record_id, attempts, enqueued_at)
            SELECT f.kind, f.id, 0, ?::text FROM unnest(?::text[], ?::bigint[]) AS f(kind, id)
            ORDER BY f.kind, f.id
            \(BuildQueueSQL.planConflict)
            """

        /// `dropCurrent` for every current record of a planning pass (parameters: kinds, ids,
        /// now).
        package let dropCurrent = """
            DELETE FROM build_queue q USING unnest(?::text[], ?::bigint[]) AS f(kind, id)
            WHERE q.record_kind = f.kind AND q.record_id = f.id AND (q.worker_id IS NULL OR q.lease_until <= ?)
            """
    }

    /// The array statements on PostgreSQL; nil on SQLite (see `ArrayStatements`).
    package var arrays: ArrayStatements? {
        switch dialect {
        case .postgres: return ArrayStatements()
        case .sqlite: return nil
        }
    }

    /// Last in the commit that passed the fence: the built record leaves the queue (parameters:
    /// kind, id). Not fenced again: inside that transaction only the commit itself touched the
    /// row (the record's own hash update, whose trigger queued it again).
    package let settleBuilt = "DELETE FROM build_queue WHERE record_kind = ? AND record_id = ?"

    /// Last in the commit that passed the fence, for a record whose build failed: back with the
    /// reason, claimable at `retry at`, its attempts as claimed (parameters: retry at, reason,
    /// attempts, kind, id).
    package let settleFailed = """
        UPDATE build_queue SET worker_id = NULL, lease_until = ?, last_error = ?, attempts = ?
        WHERE record_kind = ? AND record_id = ?
        """

    /// The condition of every fenced statement: this worker's claim with this sequence
    /// (parameters: worker, claim sequence).
    private static let held = "worker_id = ? AND claim_seq = ?"

    /// The fenced finish of a claimed record that had nothing to commit: removes the row only
    /// if this claim still holds it (parameters: kind, id, worker, claim sequence). Must change
    /// exactly one row.
    package let complete = "DELETE FROM build_queue WHERE record_kind = ? AND record_id = ? AND \(Self.held)"

    /// A failed attempt: the row goes back, claimable again after `retry at`, with the reason;
    /// fenced like `complete` (parameters: retry at, reason, kind, id, worker, claim sequence).
    package let fail = """
        UPDATE build_queue SET worker_id = NULL, lease_until = ?, last_error = ?
        WHERE record_kind = ? AND record_id = ? AND \(Self.held)
        """

    /// Hands back a claimed row untouched, its attempt not counted (parameters: kind, id,
    /// worker, claim sequence): a worker stopping before it started the record.
    package let release = """
        UPDATE build_queue SET worker_id = NULL, lease_until = NULL, attempts = attempts - 1
        WHERE record_kind = ? AND record_id = ? AND \(Self.held) AND attempts > 0
        """

    /// How many rows are not done and not this worker's to finish now (parameters: now,
    /// worker, now, max attempts): held by other workers under live leases, or claimable (free
    /// or lease run out, attempts left; the app entry's rule aside). One query, so one
    /// snapshot: a claim that found nothing because another worker held the app entry, which
    /// that worker then committed, still finds the bugs it freed here, and the drain goes on.
    package let unfinished = """
        SELECT COUNT(*) FROM build_queue
        WHERE (worker_id IS NOT NULL AND lease_until > ? AND worker_id <> ?)
           OR ((lease_until IS NULL OR lease_until <= ?) AND attempts < ?)
        """

    /// Every row, for `status` and tests.
    package let entries = """
        SELECT record_kind, record_id, worker_id, lease_until, attempts, last_error, enqueued_at, claim_seq
        FROM build_queue ORDER BY record_kind, record_id
        """
}
