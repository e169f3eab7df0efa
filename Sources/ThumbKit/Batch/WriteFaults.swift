import Foundation
import Synchronization

/// Simulated disk-full for the write path (`FileIO.writeAtomically`), so that tests and
/// `scripts/fault-test` can show what happens when a disk fills up without needing a full disk.
///
/// A budget of bytes is set for a folder (and everything below it); writes there use it up, and
/// once it is spent a write fails part-way exactly as a full disk fails it: the bytes that fit
/// are written, then `ENOSPC` ("no space left on device").
///
/// Two ways in, both off by default (an empty table costs one uncontended lock per write call):
/// - tests call `simulateDiskFull(under:afterBytes:)` for their own temporary folder, so tests
///   running in parallel do not see each other's faults, and `clear(under:)` when done;
/// - `THUMBKIT_FAULT_ENOSPC_AFTER_BYTES=N` in the environment (read once, at the first write)
///   gives the whole process N bytes before every write fails, for end-to-end runs.
enum WriteFaults {
    /// The environment variable that fills the disk after N bytes for the whole process.
    static let environmentKey = "THUMBKIT_FAULT_ENOSPC_AFTER_BYTES"

    /// Bytes left before ENOSPC, by folder prefix (with a trailing slash).
    private static let budgets = Locked<[String: Int]>(initialBudgets())

    private static func initialBudgets() -> [String: Int] {
        guard let text = ProcessInfo.processInfo.environment[environmentKey], let bytes = Int(text), bytes >= 0
        else { return [:] }
        return ["/": bytes]
    }

    /// From now on, writes under `folder` fail with ENOSPC once `afterBytes` more bytes are written.
    static func simulateDiskFull(under folder: String, afterBytes: Int) {
        budgets.withLock { $0[prefix(folder)] = max(0, afterBytes) }
    }

    /// Removes the fault for `folder`.
    static func clear(under folder: String) {
        budgets.withLock { $0[prefix(folder)] = nil }
    }

    /// How many of `count` bytes a write to `path` may write now (all of them when no fault is
    /// set for it); the budget is used up by what is granted. 0 means the disk is full.
    static func allowance(_ count: Int, path: String) -> Int {
        budgets.withLock { budgets in
            guard !budgets.isEmpty else { return count }
            // The longest matching prefix decides, so a test's folder overrides a process-wide "/".
            guard let key = budgets.keys.filter({ path.hasPrefix($0) }).max(by: { $0.count < $1.count }),
                let left = budgets[key]
            else { return count }
            let granted = min(left, count)
            budgets[key] = left - granted
            return granted
        }
    }

    private static func prefix(_ folder: String) -> String {
        folder.hasSuffix("/") ? folder : folder + "/"
    }
}
