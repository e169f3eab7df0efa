// SPDX-License-Identifier: Apache-2.0
/// A disk that fills up after a number of bytes: the writes given this instance use up its
/// budget, and once it is spent a write fails part-way exactly as a full disk fails it (the
/// bytes that fit are written, then `ENOSPC`).
///
/// Used by the tests (each passes its own instance, so tests running in parallel do not see
/// each other's faults) and by the real binary's hidden `thumb --_disk-full-after BYTES`, which
/// `Tests/ThumbKitCLITests/Commands/FaultFlagsTests.swift` and `scripts/fault-test` use when they cannot
/// mount a small tmpfs. Shipped rather than in ThumbKitTestSupport for that flag's sake.
package final class SimulatedDiskFull: FileWriteFaults {
    /// Bytes left before ENOSPC.
    private let left: Locked<Int>

    /// A disk with room for `bytes` more bytes (0: every write fails).
    package init(afterBytes bytes: Int) {
        left = Locked(max(0, bytes))
    }

    /// Bytes left before writes fail.
    package var bytesLeft: Int { left.withLock { $0 } }

    package func allowance(_ count: Int, path: String) -> Int {
        left.withLock { left in
            let granted = min(left, count)
            left -= granted
            return granted
        }
    }
}
