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
        var heavyInFlight = false
    }

    private let condition = NSCondition()
    // Guarded by `condition`: every read and write happens between its lock and unlock.
    nonisolated(unsafe) private var state: State

    /// Files in `order` (indices), the order they are handed out in when nothing is put back.
    package init(order: [Int]) {
        state = State(queue: order)
    }

    /// The next file to process, or nil when none is left. Put-back heavy files come first once
    /// the heavy slot is free; when only heavy files are left and one is in flight, this waits.
    package func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !state.deferred.isEmpty && !state.heavyInFlight { return state.deferred.removeFirst() }
            if state.next < state.queue.count {
                state.next += 1
                return state.queue[state.next - 1]
            }
            if state.deferred.isEmpty { return nil }
            condition.wait()
        }
    }

    /// Claims the heavy slot for `index`, or puts the file back (false) when another heavy
    /// decode is in flight and other files are waiting to be taken; waits for the slot when
    /// nothing else is left, or when `mayPutBack` is false (work already done for the file).
    package func claimHeavy(_ index: Int, mayPutBack: Bool = true) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while state.heavyInFlight {
            if mayPutBack && state.next < state.queue.count {
                state.deferred.append(index)
                return false
            }
            condition.wait()
        }
        state.heavyInFlight = true
        return true
    }

    /// Frees the heavy slot after a heavy decode.
    package func releaseHeavy() {
        condition.lock()
        state.heavyInFlight = false
        condition.broadcast()
        condition.unlock()
    }

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
