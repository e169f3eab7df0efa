// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// A clock a test moves by hand.
final class FakeBuildClock: BuildClock {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(start)
    }

    func now() -> Date { current.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    func advance(_ seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
