// SPDX-License-Identifier: Apache-2.0
/// How a write transaction holds the catalog's write lock on PostgreSQL (docs/scale-out.md,
/// "Locks"). SQLite has one writer at a time whatever the mode (`BEGIN IMMEDIATE` for all).
///
/// The default everywhere is `.exclusive`, so a write path nobody has reviewed for
/// concurrency keeps today's behaviour; only the build queue's hot path asks for less.
package enum WriteLockMode: Sendable, Hashable {
    /// `pg_advisory_xact_lock(catalog key)`: no other writer of the catalog runs meanwhile.
    /// For the sweep, planning (read-then-drop), migrations, the `app` unit's commit (shared
    /// strips, app icons, `Contents.json`), a lost claim's file removal and every write not
    /// converted.
    case exclusive
    /// `pg_advisory_xact_lock_shared(catalog key)`: runs beside other shared writers, never
    /// beside an exclusive one. Only for writes that touch their own record's `build_queue`
    /// row under a row lock (`FOR UPDATE` or a fenced `UPDATE`/`DELETE`) and rows no other
    /// shared writer writes: a fenced bug/food commit, lease renewal, finish, fail, release,
    /// and creating the catalog id (`INSERT … ON CONFLICT DO NOTHING`).
    case shared
    /// `.shared`, plus the exclusive claim key: claims exclude each other (and nothing else).
    /// Under the shared lock two claims could otherwise both read "no worker holds the `app`
    /// entry" and one take the app while the other takes a bug. A second key rather than
    /// the `app` row `FOR SHARE`: the app row is often absent (nothing to lock), and when it
    /// is there a claim taking it would wait on its own sibling's share lock.
    case claim
}

/// The PostgreSQL advisory keys a connection's write transactions take (numbers this code
/// computed from the catalog's schema name, never user text).
package struct WriteLockKeys: Sendable, Hashable {
    /// The catalog's write lock (`thumbkit catalog writer: <schema>`), shared or exclusive.
    package let catalog: Int64
    /// The claim lock (`thumbkit claim: <schema>`), always exclusive, only with `.claim`.
    package let claim: Int64
}
