// SPDX-License-Identifier: Apache-2.0
import CThumbKitServe
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// The header-read deadline, against slowloris. libmicrohttpd's connection timeout is an idle
/// timeout only: a client that sends one header byte every few seconds would hold its
/// connection, and one of `maxClients`' places, forever.
///
/// Each connection has a clock. It starts when the connection opens, and again when a request on
/// it completes (a kept-alive connection waiting for its next request); it stops once a
/// request's header is in. A watchdog looks every tenth of `timeout` and shuts down (`SHUT_RDWR`) the
/// socket of each connection whose clock has run past `timeout`; libmicrohttpd then reads the
/// end of the stream and closes the connection on its own thread. So an idle kept-alive
/// connection is also closed after `timeout`, as with Apache's `KeepAliveTimeout`.
final class HeaderDeadline: Sendable {
    private struct Clock {
        /// The connection's socket, read when it opened.
        var socket: Int32
        /// When the clock started; nil while a request is past its header.
        var since: ContinuousClock.Instant?
    }

    let timeout: Duration
    /// How often the watchdog looks, in milliseconds: a tenth of the timeout, within 50 ms…1 s.
    let tickMilliseconds: Int
    /// Guards the clocks, keyed by connection, and the count of connections cut off. The
    /// watchdog holds it while it shuts a socket down, and libmicrohttpd's close notification
    /// takes it before the socket is closed, so a socket number is never shut down once reused.
    private let clocks = Locked<(running: [OpaquePointer: Clock], cutOff: Int)>(([:], 0))
    /// Wakes the watchdog's thread early when it must stop; guards `watching` (true while the
    /// watchdog should run).
    private let watch = NSCondition()
    // `nonisolated(unsafe)`: only read or written between `watch.lock()` and `unlock()`.
    nonisolated(unsafe) private var watching = false

    init(seconds: Double) {
        timeout = .milliseconds(Int64((seconds * 1000).rounded()))
        tickMilliseconds = Int(max(50, min(1000, (seconds * 100).rounded())))
    }

    /// Connections closed so far because their header came too slowly.
    var cutOff: Int { clocks.withLock { $0.cutOff } }

    /// A connection opened (on libmicrohttpd's thread for it): its clock starts.
    func opened(_ connection: OpaquePointer) {
        let socket = tk_http_connection_fd(connection)
        let now = ContinuousClock.now
        clocks.withLock { $0.running[connection] = Clock(socket: socket, since: now) }
    }

    /// A connection is about to close: it is forgotten, before its socket is closed.
    func closed(_ connection: OpaquePointer) {
        clocks.withLock { _ = $0.running.removeValue(forKey: connection) }
    }

    /// A request's header is in: the clock stops.
    func headerIn(_ connection: OpaquePointer) {
        clocks.withLock { $0.running[connection]?.since = nil }
    }

    /// A request completed: the connection may wait for its next one, and the clock starts again.
    func requestCompleted(_ connection: OpaquePointer) {
        let now = ContinuousClock.now
        clocks.withLock { $0.running[connection]?.since = now }
    }

    /// Starts the watchdog, on a thread of its own: a Dispatch timer runs on Dispatch's global
    /// threads, which anything in the process that blocks them would hold back (see
    /// ``ResponderExecutor``).
    func start() {
        watch.withLock { watching = true }
        let thread = Thread { [self] in
            let interval = Double(tickMilliseconds) / 1000
            while watch.withLock({
                if watching { _ = watch.wait(until: Date(timeIntervalSinceNow: interval)) }
                return watching
            }) {
                sweep(now: .now)
            }
        }
        thread.name = "tk-http-deadline"
        thread.start()
    }

    /// Stops the watchdog.
    func stop() {
        watch.withLock {
            watching = false
            watch.broadcast()
        }
    }

    /// Shuts down every connection whose clock has run past the deadline.
    func sweep(now: ContinuousClock.Instant) {
        clocks.withLock { state in
            for (connection, clock) in state.running {
                guard let since = clock.since, now - since > timeout else { continue }
                if clock.socket >= 0 { shutdown(clock.socket, Int32(SHUT_RDWR)) }
                // Once: libmicrohttpd's close notification removes it soon after.
                state.running[connection]?.since = nil
                state.cutOff += 1
            }
        }
    }
}
