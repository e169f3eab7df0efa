// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Where a build worker gets the time for its leases: the system clock, or a test's.
public protocol BuildClock: Sendable {
    /// Now.
    func now() -> Date
}

/// The system clock (`Date()`).
public struct SystemBuildClock: BuildClock {
    public init() {}

    public func now() -> Date { Date() }
}
