// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// A worker with more than one job (`CatalogBuilder.jobs`) drains the queue in that many lanes,
/// each claiming and building on its own, rather than claiming a batch for all its jobs and
/// waiting for the batch's slowest record before the next claim.
///
/// Why: batches of `jobs` records built side by side end together, so every batch waits for its
/// slowest record while the other jobs idle; a full build of the demo catalog (14 batches of
/// two records on two cores) was about 10-15 % slower than the single pool of records it
/// replaced. Lanes keep every job busy until the queue is empty, as that pool did.
///
/// Nothing about the queue changes: every lane claims, renews, fences and settles under the
/// worker's one id. The lanes share one `ClaimPool`: a claim takes `batch` rows (as the lanes'
/// one `BatchSizer` has it: it grows while runs are quick), and each lane takes `batch / lanes`
/// records at a time from the pool (built one after another, committed together), claiming
/// again only when it is empty, so the worker holds about `batch` rows at a time with one claim
/// per `batch` records and one commit per `batch / lanes`. A lane with
/// nothing to claim waits while a sibling is still building (its record may free the bugs,
/// which wait for the app entry), and ends when nothing is claimable, no sibling is building
/// and `BuildQueue.unfinished` finds nothing left for others (no live lease of another worker,
/// nothing claimable). The callbacks are all made on the thread that called `drain`.
extension BuildWorker {
    /// `drain` in `lanes` lanes (see above).
    func drain(
        lanes: Int, idle: Duration, onEvent: (Event) -> Void, onFailure: (String) -> Void,
        onNote: ((String) -> Void)?
    ) throws -> BuildReport {
        // On PostgreSQL every lane but the first has a connection of its own, so one lane's
        // claim, snapshot or commit never waits for another's to end on a shared connection.
        // SQLite has one writer whatever the connections, and the lanes share this one.
        var stores = [builder.store]
        if case .postgres = builder.store.location {
            for _ in 1..<max(1, lanes) { stores.append(try builder.store.sibling()) }
        }
        defer { stores.dropFirst().forEach { $0.close() } }
        let sizer = BatchSizer(start: options.batch, limit: options.batchLimit, runsPerClaim: lanes)
        let workers = (0..<lanes).map { index in
            BuildWorker(lane: self, sizer: sizer, builder: builder.with(store: stores[index % stores.count], jobs: 1))
        }
        let state = LaneState(lanes: lanes)
        let pool = ClaimPool()
        let wantsNotes = onNote != nil
        // The threads hold their lane (and so its store) only through a box emptied before
        // this returns: a `Thread` may keep its closure a little after it ends, and a store
        // released late would close its database after the command ended (as `WorkQueue` does).
        let box = Locked<[BuildWorker]>(workers)
        for index in 0..<lanes {
            Thread.detachNewThread {
                if let lane = box.withLock({ $0.indices.contains(index) ? $0[index] : nil }) {
                    lane.runLane(state, pool: pool, idle: idle, wantsNotes: wantsNotes)
                }
                state.laneEnded()
            }
        }
        defer { box.withLock { $0 = [] } }
        // Deliver what the lanes report, here, until every lane has ended.
        while let messages = state.nextMessages() {
            for message in messages {
                switch message {
                case .event(let event): onEvent(event)
                case .failure(let line): onFailure(line)
                case .note(let line): onNote?(line)
                }
            }
        }
        // Rows claimed and never taken (a lane failed and the others stopped): handed back.
        let untaken = pool.removeAll()
        if !untaken.isEmpty { try? queue.release(untaken, worker: id) }
        return try state.result()
    }

    /// One lane: batches until it ends (see the type's notes) or a sibling failed.
    private func runLane(_ state: LaneState, pool: ClaimPool, idle: Duration, wantsNotes: Bool) {
        do {
            var lockedInARow = 0
            while let generation = state.begin() {
                var report: BuildReport?
                do {
                    let claims = try pool.take(share: sizer.share) {
                        try queue.claim(worker: id, limit: sizer.size, lease: options.lease, now: clock.now())
                    }
                    if !claims.isEmpty {
                        report = try run(
                            claims, onEvent: { state.post(.event($0)) }, onFailure: { state.post(.failure($0)) },
                            onNote: wantsNotes ? { state.post(.note($0)) } : nil)
                    }
                } catch CatalogError.locked(let path, let reason) where lockedInARow < Self.lockedRetries {
                    // As in the one-lane `drain`: a lock timeout is waited out, a few times.
                    lockedInARow += 1
                    state.end(nil)
                    state.post(.failure("\(path): \(reason); trying again (\(lockedInARow) of \(Self.lockedRetries))"))
                    state.wait(idle)
                    continue
                } catch  where builder.store.willReconnect {
                    // The connection dropped: the next claim reconnects first (or gives up).
                    state.end(nil)
                    state.post(.failure("\(error)"))
                    continue
                } catch {
                    state.end(nil)
                    throw error
                }
                state.end(report)
                lockedInARow = 0
                if report != nil || state.awaitSibling(since: generation, timeout: idle) { continue }
                if try queue.unfinished(worker: id, now: clock.now()) == 0 { return }
                state.wait(idle)
            }
        } catch {
            state.fail(error)
        }
    }
}

/// What the lanes of one drain share: how many are building, the merged report, the first
/// error, and the messages waiting for the calling thread. One condition guards it all.
///
/// `@unchecked Sendable`: every stored `var` is read and written only while `condition` is
/// locked (each method locks it first), and nothing of it escapes except by copy.
private final class LaneState: @unchecked Sendable {
    enum Message {
        case event(BuildWorker.Event)
        case failure(String)
        case note(String)
    }

    private let condition = NSCondition()
    private var running: Int
    private var building = 0
    /// Batches finished (a claim that began before one of them may have missed its rows).
    private var generation = 0
    private var total = BuildReport()
    private var error: (any Error)?
    private var messages: [Message] = []

    init(lanes: Int) {
        running = lanes
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// A lane starts a batch: the generation it starts at, or nil when a sibling failed.
    func begin() -> Int? {
        locked {
            guard error == nil else { return nil }
            building += 1
            return generation
        }
    }

    /// A lane's batch ended (nil: nothing claimed, or it threw).
    func end(_ report: BuildReport?) {
        locked {
            building -= 1
            if let report {
                total.add(report)
                generation += 1
            }
            condition.broadcast()
        }
    }

    /// After a claim that found nothing: waits while a sibling is building and has finished
    /// no batch since `started` (the generation the claim began at), up to `timeout`. True to
    /// claim again (a sibling's batch ended since, which may have freed rows, or the time ran
    /// out); false when no sibling is building and none finished a batch meanwhile.
    func awaitSibling(since started: Int, timeout: Duration) -> Bool {
        locked {
            let deadline = Date().addingTimeInterval(Double(timeout.milliseconds) / 1000)
            while generation == started && building > 0 {
                if !condition.wait(until: deadline) { return true }
            }
            return generation != started
        }
    }

    /// Waits for any change (a sibling's batch ending), or `timeout`.
    func wait(_ timeout: Duration) {
        locked {
            _ = condition.wait(until: Date().addingTimeInterval(Double(timeout.milliseconds) / 1000))
        }
    }

    func post(_ message: Message) {
        locked {
            messages.append(message)
            condition.broadcast()
        }
    }

    func fail(_ failure: any Error) {
        locked {
            if error == nil { error = failure }
            condition.broadcast()
        }
    }

    func laneEnded() {
        locked {
            running -= 1
            condition.broadcast()
        }
    }

    /// The messages posted since the last call, waiting for one; nil once every lane has ended
    /// and every message was taken.
    func nextMessages() -> [Message]? {
        locked {
            while messages.isEmpty && running > 0 { condition.wait() }
            if messages.isEmpty { return nil }
            defer { messages = [] }
            return messages
        }
    }

    /// The merged report, or the first error a lane met with that report (`Stopped`).
    func result() throws -> BuildReport {
        try locked {
            if let error { throw BuildWorker.Stopped(report: total, error: error) }
            return total
        }
    }
}
