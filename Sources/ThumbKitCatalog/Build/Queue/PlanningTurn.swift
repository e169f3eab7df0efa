// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Whose turn it is to plan: builds (and workers) started together let one planning pass
/// plan for all, instead of each reading every record and checking every output file again.
///
/// Why: `planQueue` reads the whole catalog and `stat`s every output, about 1 s for 20,000
/// tiny records here. Four builds started together each did it, 4 s of CPU on 2 cores before
/// any record was built, which is why four builds were hardly faster than one; a fleet of
/// workers started together did it once per worker.
///
/// The rule keeps a build's promise (everything is current as of its start): a build may use
/// a pass that *began after the build started*, has ended, and planned the same recipes and
/// output folder (`identity`). Such a pass read the records, the settings and the files later
/// than the build would have. Times are the planners' clocks in milliseconds, compared across
/// hosts as leases already are. The one row of `build_planning` (schema version 12) says when
/// the last pass began, and which pass ended last and when it began:
/// 1. When a build comes to plan, it takes the turn only if the last pass began before the
///    build started (`take`: a compare-and-set that stamps the pass's start). The first of
///    builds started together gets it and plans.
/// 2. The others wait, up to `wait`, for a pass begun after their start to end (`awaitEnd`).
///    One that planned the same identity without refusing the folder is used: the build
///    queues and counts nothing itself. Otherwise (another identity, a refusal, or no end in
///    time: its planner died or is slow) the build takes the turn anyway and plans.
/// 3. A pass records its end (`finish`) in the transaction that changes the queue, so a
///    waiter never sees an end whose queue changes are not committed.
package struct PlanningTurn: Sendable {
    /// One pass: when it began (milliseconds since 1970, the planner's clock).
    struct Pass: Sendable, Hashable {
        let startedAt: Int64
    }

    /// What a pass plans: the recipes (each one's identifier, and the rating strips') and the
    /// output folder, hashed.
    let identity: String
    /// How long a build waits for another's pass before planning itself.
    let wait: Duration

    init(builder: CatalogBuilder, wait: Duration) {
        let book = builder.recipes
        let parts =
            book.recipes.map(\.identifier)
            + [
                book.ratingStrip.identifier(for: .zero, halfGiven: false),
                "scales=\(book.ratingStrip.scales.map(String.init).joined(separator: ","))",
                "out=\(URL(fileURLWithPath: builder.outputDirectory).standardizedFileURL.path)",
            ]
        identity = ContentHash.sha256(of: Array(parts.joined(separator: "\n").utf8))
        self.wait = wait
    }

    /// The turn, stamped `now`, unless a pass began at or after `since` (then nil). One
    /// statement outside the catalog's write lock: taking the turn waits for no writer.
    func take(since: Date, now: Date, _ store: CatalogStore) throws -> Pass? {
        let (since, now) = (BuildQueue.millis(since), BuildQueue.millis(now))
        let taken = try store.writeAlone(
            "UPDATE build_planning SET started = started + 1, started_at = ? WHERE id = 1 AND started_at < ?",
            [.integer(Int(now)), .integer(Int(since))])
        return taken == 1 ? Pass(startedAt: now) : nil
    }

    /// The turn, stamped `now`, whatever began meanwhile.
    func takeAnyway(now: Date, _ store: CatalogStore) throws -> Pass {
        let now = BuildQueue.millis(now)
        try store.writeAlone(
            "UPDATE build_planning SET started = started + 1, started_at = ? WHERE id = 1", [.integer(Int(now))])
        return Pass(startedAt: now)
    }

    /// Waits up to `wait` for a pass begun at or after `since` to end. True when it planned
    /// this identity and did not refuse the folder.
    func awaitEnd(since: Date, _ store: CatalogStore) throws -> Bool {
        let since = BuildQueue.millis(since)
        let deadline = ContinuousClock.now + wait
        while true {
            let last = try store.read { tx in
                try tx.db.queryFirst("SELECT finished_started_at, identity, refused FROM build_planning") {
                    (startedAt: Int64($0.int(0)), identity: $0.isNull(1) ? nil : $0.string(1), refused: $0.int(2) != 0)
                }
            }
            if let last, last.startedAt >= since { return last.identity == identity && !last.refused }
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Records, in `db` (planning's transaction), that `pass` ended (`refused`: it refused the
    /// output folder). A later pass's end is never overwritten by an earlier one's.
    func finish(_ pass: Pass, refused: Bool, in db: any CatalogConnection) throws {
        let (sql, values) = ending(pass, refused: refused)
        try db.run(sql, values)
    }

    /// `finish` in a statement of its own, outside the catalog's write lock.
    func finish(_ pass: Pass, refused: Bool, alone store: CatalogStore) throws {
        let (sql, values) = ending(pass, refused: refused)
        try store.writeAlone(sql, values)
    }

    /// How many passes have begun, and how many ends were recorded (an end older than the last
    /// one recorded is not): a check, the tests', that builds started together planned once.
    static func passes(_ store: CatalogStore) throws -> (begun: Int, ended: Int) {
        try store.read { tx in
            try tx.db.queryFirst("SELECT started, finished FROM build_planning") { ($0.int(0), $0.int(1)) }
        } ?? (0, 0)
    }

    private func ending(_ pass: Pass, refused: Bool) -> (String, [CatalogValue]) {
        (
            """
            UPDATE build_planning SET finished = finished + 1, finished_started_at = ?, identity = ?, refused = ?
            WHERE id = 1 AND finished_started_at <= ?
            """,
            [.integer(Int(pass.startedAt)), .text(identity), .integer(refused ? 1 : 0), .integer(Int(pass.startedAt))]
        )
    }
}
