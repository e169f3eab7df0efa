// SPDX-License-Identifier: Apache-2.0
/// A seam in the write path (`FileIO.writeAtomically`): how many bytes of a write may reach
/// the disk now, so that tests and `scripts/fault-test` can show what happens when a disk fills
/// up without needing a full disk.
///
/// Whoever writes passes one in: ``BatchRunner/writeFaults`` (the `thumb` batch) is
/// ``NoWriteFaults`` unless a test sets it, or the CLI does for its hidden
/// `thumb --_disk-full-after BYTES` flag. Nothing reads the environment.
package protocol FileWriteFaults: Sendable {
    /// How many of the `count` bytes still to write to `path` (the temporary file) may be
    /// written now; fewer than `count` is a short write, and 0 fails the write with `ENOSPC`
    /// ("no space left on device") as a full disk does.
    func allowance(_ count: Int, path: String) -> Int
}

/// No faults: every write goes through whole. The default.
package struct NoWriteFaults: FileWriteFaults {
    package init() {}

    package func allowance(_ count: Int, path: String) -> Int { count }
}
