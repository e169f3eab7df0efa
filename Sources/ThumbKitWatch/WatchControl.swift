// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// The thread-safe side of a ``WatchSession``: signal handlers ask it to stop, workers hand in
/// their results, and both wake the watch loop through a self-pipe it waits on with `poll`.
public final class WatchControl: Sendable {
    /// A finished file, handed from a worker to the loop.
    struct Completion: Sendable {
        let path: String
        let events: [IngestEvent]
    }

    private struct State {
        var stopRequests = 0
        var completions: [Completion] = []
    }

    private let state = Locked(State())
    /// The pipe's read end (non-blocking), polled by the loop.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32

    /// A control with a fresh self-pipe.
    ///
    /// - Throws: `WatchError.io` when no pipe can be made (out of descriptors).
    public init() throws(WatchError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw .io(path: "pipe", reason: WatchError.errnoText()) }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriter)
    }

    /// Asks the session to stop taking new files, finish the ones in flight and return. Safe
    /// from any thread (call it from a `DispatchSourceSignal` handler, not a raw signal handler).
    /// Returns how many stops have been asked for so far.
    @discardableResult
    public func requestStop() -> Int {
        let count = state.withLock { state in
            state.stopRequests += 1
            return state.stopRequests
        }
        wake()
        return count
    }

    /// Whether a stop was asked for.
    public var isStopRequested: Bool { state.withLock { $0.stopRequests > 0 } }

    func complete(_ completion: Completion) {
        state.withLock { $0.completions.append(completion) }
        wake()
    }

    /// Takes the completions handed in so far, and whether a stop was asked for.
    func take() -> (stop: Bool, completions: [Completion]) {
        state.withLock { state in
            let taken = state.completions
            state.completions = []
            return (state.stopRequests > 0, taken)
        }
    }

    /// Makes the loop's `poll` return. A full pipe already has a wake-up pending, so a failed
    /// write is fine.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drainWakeups() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(wakeDescriptor, &bytes, bytes.count) > 0 {}
    }
}
