// SPDX-License-Identifier: Apache-2.0
import CThumbKit
import Foundation

/// Hands a batch's files to its workers: largest first (a big file started last would keep one
/// worker busy while the others sit idle), and never two memory-heavy decodes at once.
///
/// A decode is heavy when its decoder must hold much more than rows (libjpeg's whole-image
/// coefficient buffer for a progressive JPEG above 1/8, 128 bytes a block: 100 MB for a 4096²
/// 4:4:4 photo; an interlaced PNG). A worker that draws a heavy file while another heavy one is
/// in flight puts it back and takes the next file; put-back files go first as soon as the heavy
/// slot is free. So peak memory is one heavy decode plus light ones, whatever the batch size,
/// and workers only wait when nothing but heavy files is left.
///
/// `thumb` (`BatchRunner`) schedules files with it, the catalog build (`CatalogBuilder`)
/// records, each by the estimate of `Thumbnailer.decodeMemoryEstimate`.
package final class BatchScheduler: Sendable {
    /// Decoder memory above which a file counts as heavy.
    package static let heavyBytes = 16 << 20

    private struct State {
        var queue: [Int]
        var next = 0
        var deferred: [Int] = []
    }

    /// The one heavy slot, perhaps shared with other schedulers (the lanes of a catalog build);
    /// its lock guards `state` too.
    package let slot: HeavyDecodeSlot
    // Guarded by `slot.condition`: every read and write happens between its lock and unlock.
    nonisolated(unsafe) private var state: State

    /// Files in `order` (indices), the order they are handed out in when nothing is put back;
    /// heavy decodes take `slot` (by default one of this scheduler's own).
    package init(order: [Int], slot: HeavyDecodeSlot = HeavyDecodeSlot()) {
        self.slot = slot
        state = State(queue: order)
    }

    /// The next file to process, or nil when none is left. Put-back heavy files come first once
    /// the heavy slot is free; when only heavy files are left and one is in flight, this waits.
    package func take() -> Int? {
        slot.condition.lock()
        defer { slot.condition.unlock() }
        while true {
            if !state.deferred.isEmpty && !slot.inFlight { return state.deferred.removeFirst() }
            if state.next < state.queue.count {
                state.next += 1
                return state.queue[state.next - 1]
            }
            if state.deferred.isEmpty { return nil }
            slot.waitLocked()
        }
    }

    /// Claims the heavy slot for `index`, or puts the file back (false) when another heavy
    /// decode is in flight and other files are waiting to be taken; waits for the slot when
    /// nothing else is left, or when `mayPutBack` is false (work already done for the file).
    package func claimHeavy(_ index: Int, mayPutBack: Bool = true) -> Bool {
        slot.condition.lock()
        defer { slot.condition.unlock() }
        while slot.inFlight {
            if mayPutBack && state.next < state.queue.count {
                state.deferred.append(index)
                return false
            }
            slot.waitLocked()
        }
        slot.inFlight = true
        return true
    }

    /// Frees the heavy slot after a heavy decode.
    package func releaseHeavy() { slot.release() }

    /// Indices of `paths` by decreasing file size (unreadable files count as empty), ties in
    /// order: a big file started last would keep one worker busy while the others sit idle.
    package static func largestFirst(_ paths: [String]) -> [Int] {
        let sizes = paths.map { path -> Int in
            var st = stat()
            return PathBytes.withCString(path, { stat($0, &st) }) == 0 ? Int(st.st_size) : 0
        }
        return paths.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    }
}

/// The right to run one memory-heavy decode: at most one holder at a time among everything that
/// shares it (the schedulers of one catalog builder's lanes, the watch folder's checks).
package final class HeavyDecodeSlot: Sendable {
    /// Guards `inFlight`, and the state of every `BatchScheduler` that uses this slot.
    let condition = NSCondition()
    // Guarded by `condition`: every read and write happens between its lock and unlock.
    nonisolated(unsafe) var inFlight = false
    /// Called, holding the lock, each time a caller is about to wait for the slot: a test's
    /// handshake, so it can tell "waiting" from "not started yet" without sleeping.
    private let onWait: (@Sendable () -> Void)?

    package init(onWait: (@Sendable () -> Void)? = nil) {
        self.onWait = onWait
    }

    /// Waits on `condition`, which the caller holds, for the slot or the batch to change.
    func waitLocked() {
        onWait?()
        condition.wait()
    }

    /// Takes the slot if it is free, never waiting: true when taken (the caller then calls
    /// `release`). For a decode that is faster with more memory and fine without it (a large
    /// PNG's fast path, `PNGFastRows.Budget.heavySlot`).
    package func tryClaim() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !inFlight else { return false }
        inFlight = true
        return true
    }

    /// Runs `body` holding the slot when `heavy`, waiting for it first; at once otherwise.
    package func run<T, E: Error>(heavy: Bool, _ body: () throws(E) -> T) throws(E) -> T {
        guard heavy else { return try body() }
        condition.lock()
        while inFlight { waitLocked() }
        inFlight = true
        condition.unlock()
        defer { release() }
        return try body()
    }

    /// Frees the slot and wakes whoever waits for it, after handing the decode's memory back to
    /// the system: glibc keeps freed memory in the arena of the thread that freed it, so the
    /// next heavy decode, on another thread, would otherwise add its buffers to the peak
    /// instead of reusing these (measured: a 2-job build of 2560² progressive JPEGs peaked at
    /// 132 MB instead of the 79 MB of one job).
    package func release() {
        tk_trim_heap()
        condition.lock()
        inFlight = false
        condition.broadcast()
        condition.unlock()
    }
}
