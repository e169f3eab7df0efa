// SPDX-License-Identifier: Apache-2.0
import Foundation

/// How a catalog's PostgreSQL connection comes back after the server dropped it (a restart, a
/// failover, `pg_terminate_backend`, an idle-connection killer), for the long-running commands
/// (`worker`, `build`). Without one, the first statement after the drop fails, as before.
///
/// The connection is reopened at the start of the next transaction (`PostgresConnection.begin`),
/// never in the middle of one: a transaction the drop cut off fails with its error (the caller
/// decides: a worker's batch loop carries on), and the next one finds the connection lost and
/// reconnects first: at once, then with backoff (0.5 s doubling to 30 s, one `log` line per
/// wait). The outage runs from the first transaction that found the connection lost until one
/// runs through without losing it; once it has lasted `timeout`, reconnecting gives up, and
/// every later transaction fails at once with the same error (one clear line). Claims held
/// across the gap are covered by their leases: one that ran out meanwhile may be someone
/// else's, and the fenced commit refuses it.
package struct PostgresReconnection: Sendable {
    /// How long the connection may stay lost before giving up (zero: give up at once).
    package var timeout: Duration
    /// Gets one line per wait before an attempt and one when the connection is back.
    package var log: @Sendable (String) -> Void
    /// The time and the waits between attempts (a test passes a fake one).
    package var clock: any ReconnectClock

    package init(
        timeout: Duration, log: @escaping @Sendable (String) -> Void = { _ in },
        clock: any ReconnectClock = SystemReconnectClock()
    ) {
        self.timeout = timeout
        self.log = log
        self.clock = clock
    }

    /// The wait after failed attempt `attempt` (1 for the first): 0.5 s doubling to 30 s. The
    /// listening connection (`PostgresWakeSource`) backs off the same way.
    package static func delay(afterAttempt attempt: Int) -> Duration {
        .milliseconds(min(30_000, 500 << min(max(attempt - 1, 0), 6)))
    }

    /// `1.5 s`, `60 s`: a duration for a message.
    static func seconds(_ duration: Duration) -> String {
        String(format: "%g s", (Double(duration.milliseconds) / 100).rounded() / 10)
    }
}

/// Where reconnecting gets the time and waits: the system, or a test's fake.
package protocol ReconnectClock: Sendable {
    /// Now (monotonic).
    func now() -> ContinuousClock.Instant
    /// Waits `duration`.
    func sleep(_ duration: Duration)
}

/// The system's monotonic clock; `sleep` blocks the calling thread.
package struct SystemReconnectClock: ReconnectClock {
    package init() {}
    package func now() -> ContinuousClock.Instant { .now }
    package func sleep(_ duration: Duration) { Thread.sleep(forTimeInterval: Double(duration.milliseconds) / 1000) }
}

extension PostgresConnection {
    /// The connection was found lost at the start of a transaction (`error` says how):
    /// reconnects under `reconnection` (see `PostgresReconnection`), or throws `error` when
    /// there is no policy, or the give-up error once the outage has lasted its timeout.
    func recover(after error: CatalogError) throws(CatalogError) {
        guard let policy = reconnection else { throw error }
        if let gaveUp { throw gaveUp }
        losses += 1
        let start = outageStart ?? policy.clock.now()
        outageStart = start
        var last = error
        while true {
            let elapsed = policy.clock.now() - start
            if elapsed >= policy.timeout {
                let failure = CatalogError.open(
                    path: location,
                    reason: "connection lost, and not back within the reconnect timeout "
                        + "(\(PostgresReconnection.seconds(policy.timeout))): \(last.reason)")
                gaveUp = failure
                throw failure
            }
            // The first attempt of an outage goes at once (a terminated backend's server is
            // up); later ones, in this call or a later one, back off.
            if outageAttempts > 0 {
                let delay = min(PostgresReconnection.delay(afterAttempt: outageAttempts), policy.timeout - elapsed)
                policy.log(
                    "\(last); reconnecting in \(PostgresReconnection.seconds(delay)) (attempt \(outageAttempts + 1))")
                policy.clock.sleep(delay)
            }
            outageAttempts += 1
            do {
                try reconnect()
                policy.log("\(location): connection back after \(outageAttempts) attempt(s)")
                return
            } catch {
                last = error
            }
        }
    }
}
