// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Builds records taken from the build queue, a few at a time, alongside any number of other
/// workers (threads, processes or hosts) on the same catalog and output folder.
///
/// Each batch: claim up to `batch` rows, renew their leases every `lease / 3` while
/// `CatalogBuilder.build(only:)` makes them, and commit the built bugs and foods together in
/// one transaction (`CommitBatch`: one fence for all, every 64 records or 100 ms and at the
/// batch's end): each row removed when built, put back with the reason when the build failed,
/// and nothing written at all for a record whose claim was lost. The `app` entry commits alone
/// (exclusive), fenced by the `BuildCommitGuard`. Records the build had nothing to commit for
/// are finished together in one more transaction. Events are reported after those commits.
///
/// A lost claim records nothing: the build renames every file into place before its commit,
/// and output names are tagged with their content, so those files hold the very bytes the
/// record's new owner writes under the same names; the refused build removes the ones no row
/// describes (`UnitBuild`), and a SIGKILLed one's wait for the next full build's sweep. The one
/// untagged output, the icon set's
/// `Contents.json`, is written only inside a commit that passed the fence. The only temporary
/// files (`.tmp-` names) are those of a worker killed mid-write, which the next build's
/// stray-file sweep removes.
public struct BuildWorker: Sendable {
    /// How a worker claims and retries.
    public struct Options: Sendable {
        /// How long a claim lasts without renewal.
        public var lease: Duration
        /// Rows claimed at a time: the first claim's, and the least.
        public var batch: Int
        /// Rows claimed at a time at most: while batches finish quickly, claims grow from
        /// `batch` up to this, each about what the worker builds in 100 ms (`BatchSizer`).
        /// Equal to `batch` (the default), every claim takes `batch`.
        public var batchLimit: Int
        /// How long a failed record waits before it is claimable again: nil backs off from the
        /// lease (lease × 2^(attempt−1), at most an hour), for long-running workers.
        public var retryDelay: Duration?

        /// The batch when none is given: 4 × `jobs`. A claim costs a transaction on the one
        /// claim key, so each takes enough rows to keep every job busy for a while (the lanes
        /// share them, see `BuildWorker+Lanes`).
        package static func defaultBatch(jobs: Int) -> Int { 4 * max(1, jobs) }

        /// The most rows a claim grows to when none is given: 64 per job, what one commit takes
        /// (`CommitBatch.maxRecords`) for each of a drain's lanes.
        package static func defaultBatchLimit(jobs: Int) -> Int { CommitBatch.maxRecords * max(1, jobs) }

        public init(lease: Duration = .seconds(30), batch: Int = 4, batchLimit: Int? = nil, retryDelay: Duration? = nil)
        {
            self.lease = lease
            self.batch = max(1, batch)
            self.batchLimit = max(self.batch, batchLimit ?? batch)
            self.retryDelay = retryDelay
        }
    }

    /// What happened to one claimed record.
    public struct Event: Sendable, Hashable, Codable {
        public enum Status: String, Sendable, Codable {
            /// Built (or found current) and its row removed.
            case built
            /// Its build failed; the row went back with `error`.
            case failed
            /// Its claim was lost before the commit; nothing was recorded.
            case lost
        }

        /// `bug 3`.
        public let record: String
        public let status: Status
        public let attempt: Int
        public let worker: String
        public let error: String?
    }

    public let builder: CatalogBuilder
    public let queue: BuildQueue
    /// This worker's id in the queue (unique per worker: host, pid and a random part).
    public let id: String
    public let options: Options
    let clock: any BuildClock
    let crashPoints: (any BuildCrashPoints)?
    /// The size of this worker's next claim.
    let sizer: BatchSizer
    /// Failure lines that concern no one record (unreadable rating icons, a refused output
    /// folder), already reported by this worker: each build of a batch meets them again.
    private let reportedShared: Locked<Set<String>>

    public init(
        builder: CatalogBuilder, queue: BuildQueue, id: String = BuildWorker.newID(), options: Options = Options(),
        clock: any BuildClock = SystemBuildClock(), crashPoints: (any BuildCrashPoints)? = nil
    ) {
        self.builder = builder
        self.queue = queue
        self.id = id
        self.options = options
        self.clock = clock
        self.crashPoints = crashPoints
        self.sizer = BatchSizer(start: options.batch, limit: options.batchLimit)
        self.reportedShared = Locked([])
    }

    /// One lane of `worker`'s drain (`BuildWorker+Lanes`): the same id, options, clock and crash
    /// points, and the same record of shared failure lines already reported, with a builder of
    /// its own (one job; its store may be a sibling connection), the queue on that builder's
    /// store, and the drain's `sizer`, which every lane shares.
    init(lane worker: BuildWorker, sizer: BatchSizer, builder: CatalogBuilder) {
        self.builder = builder
        self.queue = builder.store === worker.builder.store ? worker.queue : BuildQueue(store: builder.store)
        self.id = worker.id
        self.options = worker.options
        self.clock = worker.clock
        self.crashPoints = worker.crashPoints
        self.sizer = sizer
        self.reportedShared = worker.reportedShared
    }

    /// `host:pid:random`.
    public static func newID() -> String {
        let host = ProcessInfo.processInfo.hostName
        return "\(host):\(getpid()):\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// The retry time of a failed attempt.
    private func retryAt(attempt: Int) -> Date {
        let delay: Double
        if let fixed = options.retryDelay {
            delay = Double(fixed.milliseconds) / 1000
        } else {
            delay = min(3600, Double(options.lease.milliseconds) / 1000 * pow(2, Double(max(0, attempt - 1))))
        }
        return clock.now().addingTimeInterval(delay)
    }

    /// Claims and builds one batch; nil when nothing was claimable.
    ///
    /// - Parameters:
    ///   - onEvent: one call per claimed record, once its row is finished.
    ///   - onFailure: each failure line (a record's, or one concerning all, reported once).
    ///   - onNote: the build's notes (the output folder just claimed).
    public func runBatch(
        onEvent: (Event) -> Void = { _ in }, onFailure: (String) -> Void = { _ in },
        onNote: ((String) -> Void)? = nil
    ) throws -> BuildReport? {
        let claims = try queue.claim(worker: id, limit: sizer.size, lease: options.lease, now: clock.now())
        guard !claims.isEmpty else { return nil }
        return try run(claims, onEvent: onEvent, onFailure: onFailure, onNote: onNote)
    }

    /// Builds `claims` (rows this worker holds) and finishes each of their rows, as
    /// `runBatch` does with the rows it claims; a lane runs what it took from its worker's
    /// `ClaimPool` this way.
    func run(
        _ claims: [BuildQueue.Claim], onEvent: (Event) -> Void, onFailure: (String) -> Void,
        onNote: ((String) -> Void)?
    ) throws -> BuildReport {
        let started = clock.now()
        defer { sizer.record(records: claims.count, elapsed: .seconds(clock.now().timeIntervalSince(started))) }
        crashPoints?.reached(.claimed, records: claims.map(\.record))
        let held = Dictionary(claims.map { ($0.record, $0) }, uniquingKeysWith: { a, _ in a })
        let finished = Locked([RecordRef: [String]]())
        let lost = Locked(Set<RecordRef>())
        let (queue, id) = (self.queue, self.id)
        let worker = self
        let renewer = LeaseRenewer(queue: queue, worker: id, lease: options.lease, clock: clock)
        let lossesBefore = builder.store.connectionLosses
        let settled: @Sendable (RecordRef, [String]) -> Void = { record, failures in
            finished.withLock { $0[record] = failures }
        }
        let batch = CommitBatch(
            queue: queue, worker: id, claims: claims, retryAt: { worker.retryAt(attempt: $0) }, onSettled: settled,
            onLost: { record in lost.withLock { _ = $0.insert(record) } })
        var report = builder.build(
            only: claims.map(\.record), onNote: onNote,
            commitGuard: BuildCommitGuard(
                check: { tx, record in
                    guard let claim = held[record] else { return }  // a side unit (strips for bugs)
                    do {
                        try queue.check(claim, worker: id, in: tx)
                    } catch let error as BuildQueue.LostClaim {
                        lost.withLock { _ = $0.insert(record) }
                        throw error
                    }
                },
                finish: { tx, record, failures, _ in
                    guard let attempt = held[record]?.attempt else { return }
                    let reason = failures.isEmpty ? nil : failures.joined(separator: "; ")
                    try queue.settle(
                        record, failure: reason, attempts: attempt, retryAt: worker.retryAt(attempt: attempt), in: tx)
                    settled(record, failures)
                }, batch: batch))
        // The records still waiting are committed now, together; their leases are renewed
        // until then.
        report.add(batch.flush())
        renewer.stop()
        // The catalog's connection dropped during the batch (it is lost now, or was reopened
        // meanwhile): a record with nothing committed was cut off by the drop, not failed. It
        // goes back at once, its attempt not counted, and the drop is no failure of the batch.
        let dropped = builder.store.willReconnect || builder.store.connectionLosses != lossesBefore
        crashPoints?.reached(.built, records: claims.map(\.record))

        // Sort the failure lines: a record's own, lost claims (not failures: the record is
        // someone else's now), and lines concerning no one record.
        let (done, gone) = (finished.withLock { $0 }, lost.withLock { $0 })
        let own = Set(done.values.flatMap { $0 })
        let lostLines = Set(gone.map { BuildQueue.LostClaim(record: $0, workerID: id).description })
        let shared = report.failures.filter { !own.contains($0) && !lostLines.contains($0) }
        let newShared = reportedShared.withLock { seen in shared.filter { seen.insert($0).inserted } }
        report.failures = report.failures.filter { own.contains($0) } + (dropped ? [] : newShared)
        report.failed = report.failures.count
        (report.failures + (dropped ? newShared : [])).forEach(onFailure)

        // Nothing committed: current, deleted, or the build could not start (a shared failure,
        // then the record's reason). Finished together, in one transaction.
        let reason = shared.isEmpty ? nil : shared.joined(separator: "; ")
        let unsettled = claims.filter { !gone.contains($0.record) && done[$0.record] == nil }
        if dropped && !unsettled.isEmpty {
            try queue.release(unsettled, worker: id)
        }
        let unfinished =
            dropped ? [] : try queue.finish(unsettled.map { ($0, reason) }, worker: id, retryAt: retryAt(attempt:))
        for claim in claims {
            let record = claim.record
            func event(_ status: Event.Status, _ error: String?) {
                onEvent(Event(record: "\(record)", status: status, attempt: claim.attempt, worker: id, error: error))
            }
            if gone.contains(record) || unfinished.contains(record) {
                event(.lost, nil)
            } else if let failures = done[record] {
                event(failures.isEmpty ? .built : .failed, failures.isEmpty ? nil : failures.joined(separator: "; "))
            } else if dropped {
                event(.lost, "the catalog's connection dropped before its commit; queued again")
            } else {
                event(reason == nil ? .built : .failed, reason)
            }
        }
        return report
    }

    /// `thumbkit build`: batches until a claim finds nothing and `BuildQueue.unfinished` finds
    /// no row another worker holds under a live lease and none claimable (a row another worker
    /// holds is waited for: it ends built, or its lease runs out and it is claimed here; a
    /// claim that found nothing while another worker held the app entry is tried again once
    /// that entry's commit freed the bugs, rather than ending the drain with them queued). A
    /// builder with more than one job drains in that many lanes, each claiming and building on
    /// its own (`BuildWorker+Lanes`); the callbacks are made on the calling thread either way. A dropped connection is reopened as in `serve`; any error
    /// that ends the drain comes as `Stopped`, with what was built until then.
    public func drain(
        idle: Duration = .milliseconds(200), onEvent: (Event) -> Void = { _ in },
        onFailure: (String) -> Void = { _ in }, onNote: ((String) -> Void)? = nil
    ) throws -> BuildReport {
        if builder.jobs > 1 {
            return try drain(lanes: builder.jobs, idle: idle, onEvent: onEvent, onFailure: onFailure, onNote: onNote)
        }
        var total = BuildReport()
        var lockedInARow = 0
        while true {
            do {
                if let report = try runBatch(onEvent: onEvent, onFailure: onFailure, onNote: onNote) {
                    total.add(report)
                    lockedInARow = 0
                    continue
                }
                if try queue.unfinished(worker: id, now: clock.now()) == 0 { return total }
                lockedInARow = 0
            } catch CatalogError.locked(let path, let reason) where lockedInARow < Self.lockedRetries {
                // Another builder held the lock past the busy timeout (four builds planning at
                // once, on a loaded machine): a claim that timed out claimed nothing, and a
                // commit that timed out rolled back with its lease still held, so trying again
                // is safe. Only a lock that stays busy, retry after retry, ends the drain.
                lockedInARow += 1
                onFailure("\(path): \(reason); trying again (\(lockedInARow) of \(Self.lockedRetries))")
            } catch  where builder.store.willReconnect {
                // The connection dropped: the next claim reconnects first (or gives up).
                onFailure("\(error)")
                continue
            } catch {
                throw Stopped(report: total, error: error)
            }
            Thread.sleep(forTimeInterval: Double(idle.milliseconds) / 1000)
        }
    }

    /// How many lock timeouts in a row a `drain` waits out before it stops (each waits the
    /// catalog's busy timeout, then the idle time).
    static let lockedRetries = 12

    /// A `drain` that stopped on an error (the catalog's connection lost for good, say) after
    /// building what it could: what it did, and why it stopped.
    public struct Stopped: Error, CustomStringConvertible {
        /// What the drain did before it stopped.
        public var report: BuildReport
        /// Why it stopped.
        public var error: any Error

        public var description: String { "\(error)" }
    }

    /// `thumbkit worker`: batches until `shouldStop` says so (checked between batches: the
    /// records in hand are always finished), waiting on `wake` up to `poll` when idle. A
    /// connection the server dropped is reopened (`CatalogStore.reconnect(with:)`), and the
    /// loop goes on; the error it gives up with ends it.
    ///
    /// `onIdle` is called when the worker goes idle: the queue had nothing claimable, at the
    /// start or after a batch, and it is about to wait on `wake`. Not again for each poll that
    /// finds nothing, only after work. From then on only `wake` (or `poll`) starts it again,
    /// so a test (and an operator reading the log) can tell a record queued after this point
    /// was picked up by a wake-up, not by the loop going round.
    ///
    /// `onFailure` gets each line no event carries: a failure that concerns no one record (an
    /// unreadable rating icon), a lock waited out, a dropped connection. A record's own failure
    /// comes once, in its `failed` event.
    public func serve(
        wake: any WakeSource, poll: Duration, shouldStop: () -> Bool, onEvent: (Event) -> Void = { _ in },
        onFailure: (String) -> Void = { _ in }, onIdle: () -> Void = {}
    ) throws -> BuildReport {
        var total = BuildReport()
        var busy = true  // Idle is reported on the way from busy (or the start) to waiting.
        while !shouldStop() {
            var idle = false
            do {
                // The batch's lines are held until its events are out (they come after them).
                var lines: [String] = []
                var carried: [String] = []
                let report = try runBatch(
                    onEvent: { event in
                        if let error = event.error { carried.append(error) }
                        onEvent(event)
                    }, onFailure: { lines.append($0) })
                lines.filter { line in !carried.contains { $0.contains(line) } }.forEach(onFailure)
                if let report {
                    total.add(report)
                    busy = true
                    continue
                }
                idle = true
            } catch CatalogError.locked(let path, let reason) {
                // Busy for longer than the busy timeout: a long-running worker waits and tries
                // again rather than exiting (its claims, if any, run out and are taken over).
                onFailure("\(path): \(reason); trying again in \(poll)")
            } catch  where builder.store.willReconnect {
                // The connection dropped: the next claim reconnects first (or gives up, and
                // that error ends the loop).
                onFailure("\(error)")
                continue
            }
            if idle && busy {
                busy = false
                onIdle()
            }
            wake.wait(timeout: poll)
        }
        return total
    }
}

/// Points in a batch where a test can stop, stall or kill a worker (a seam: production passes
/// none).
public protocol BuildCrashPoints: Sendable {
    /// The worker reached `point` holding `records`.
    func reached(_ point: BuildCrashPoint, records: [RecordRef])
}

/// Where in a batch a `BuildCrashPoints` is called.
public enum BuildCrashPoint: String, Sendable {
    /// Rows claimed, nothing built yet.
    case claimed
    /// Built and committed, rows not yet all finished.
    case built
}
