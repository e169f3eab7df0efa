// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// What the workers of one queue bench run said on stderr (`thumbkit worker --json
/// --queue-stats`), gathered from every worker's reading thread, with waits on it.
///
/// `@unchecked Sendable`: every stored `var` is read and written only while `condition` is
/// locked (each method locks it first), and only copies leave it.
final class QueueBenchEvents: @unchecked Sendable {
    /// One line of a worker's log (the fields the bench reads).
    private struct Line: Decodable {
        var event: String
        var record: String?
        var error: String?
        var stats: QueueMeter.Snapshot?
    }

    private let condition = NSCondition()
    /// Workers (by index) that have logged `idle` at least once.
    private var idle = Set<Int>()
    /// `built` events per record.
    private var built: [String: Int] = [:]
    private var failed = 0
    private var lost = 0
    /// When the last `built` event arrived (epoch seconds).
    private var lastBuilt: Double?
    /// Each worker's `queue-stats`.
    private var stats: [QueueMeter.Snapshot] = []
    /// Workers whose stderr has ended (they exited).
    private var ended = Set<Int>()
    /// The last lines that were no event or told of an error, for the message when a run fails.
    private var notes: [String] = []

    /// Takes one line from worker `index`.
    func take(_ text: Substring, from index: Int) {
        let now = Date().timeIntervalSince1970
        let line = try? JSONDecoder().decode(Line.self, from: Data(text.utf8))
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        guard let line else {
            note("worker \(index + 1): \(text)")
            return
        }
        switch line.event {
        case "idle": idle.insert(index)
        case "built" where line.record?.hasPrefix("food ") == true:
            // The bench's records; the app entry a worker's planning pass may queue is not one.
            built[line.record ?? "?", default: 0] += 1
            lastBuilt = now
        case "failed":
            failed += 1
            note("worker \(index + 1): \(line.record ?? "?"): failed: \(line.error ?? "")")
        case "lost": lost += 1
        case "queue-stats": if let snapshot = line.stats { stats.append(snapshot) }
        default: if let error = line.error { note("worker \(index + 1): \(line.event): \(error)") }
        }
    }

    private func note(_ text: String) {
        notes.append(String(text.prefix(300)))
        if notes.count > 10 { notes.removeFirst() }
    }

    /// Worker `index`'s stderr ended.
    func end(_ index: Int) {
        condition.lock()
        ended.insert(index)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `check` holds, some worker has ended, or `deadline` passed; whether `check`
    /// holds.
    private func wait(until deadline: Date, _ check: () -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !check() && ended.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        return check()
    }

    /// Waits until `workers` workers have each gone idle once.
    func waitIdle(_ workers: Int, until deadline: Date) -> Bool { wait(until: deadline) { idle.count >= workers } }

    /// Waits until `records` records have been built.
    func waitBuilt(_ records: Int, until deadline: Date) -> Bool { wait(until: deadline) { built.count >= records } }

    /// Waits until every one of `workers` workers has ended.
    func waitEnded(_ workers: Int, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ended.count < workers {
            if !condition.wait(until: deadline) { break }
        }
        return ended.count >= workers
    }

    /// A copy of what was gathered.
    var summary: Summary {
        condition.lock()
        defer { condition.unlock() }
        return Summary(
            built: built.count, builtEvents: built.values.reduce(0, +),
            duplicates: built.values.filter { $0 > 1 }.count, failed: failed, lost: lost, lastBuilt: lastBuilt,
            stats: stats, notes: notes)
    }

    /// What the workers said, copied out.
    struct Summary {
        /// Records built at least once.
        var built: Int
        /// `built` events in all.
        var builtEvents: Int
        /// Records built more than once.
        var duplicates: Int
        var failed: Int
        var lost: Int
        var lastBuilt: Double?
        var stats: [QueueMeter.Snapshot]
        var notes: [String]
    }
}
