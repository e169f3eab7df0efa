// SPDX-License-Identifier: Apache-2.0
/// The process exit status of `thumbkit`: the whole contract is these three values.
enum ExitCode: Int32, Sendable, Hashable {
    /// Everything asked for succeeded (also `--help` and `--version`).
    case success = 0
    /// The command ran, but at least one input failed (each failure printed as
    /// `thumbkit: <path>: <reason>` on stderr), or a runtime error stopped it.
    case failure = 1
    /// The command line was wrong (a ``UsageError``); nothing was done.
    case usage = 2

    /// ``success`` when no input failed, else ``failure``: the batch rule.
    init(failureCount: Int) {
        precondition(failureCount >= 0, "A failure count cannot be negative.")
        self = failureCount == 0 ? .success : .failure
    }
}
