// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

@testable import ThumbKitServe

/// A clock the test moves by hand.
final class FakeClock: WebAppClock {
    /// Guards the current time.
    private let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))

    func now() -> Date { time.withLock { $0 } }

    func advance(_ seconds: TimeInterval) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
