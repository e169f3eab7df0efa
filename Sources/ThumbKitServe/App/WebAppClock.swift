// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Where the web app reads the time (sessions, the login rate limit): a seam, so tests can
/// move time by hand.
package protocol WebAppClock: Sendable {
    func now() -> Date
}

/// The system's clock.
package struct SystemWebAppClock: WebAppClock {
    package init() {}
    package func now() -> Date { Date() }
}
