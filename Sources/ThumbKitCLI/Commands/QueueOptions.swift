// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// Options of the commands that build through the build queue (`build`, `worker`).
enum QueueOptions {
    /// `--lease SECONDS`: how long a claim lasts without renewal (0.2 s to a day).
    static let lease: OptionKey<Double> = .number(
        "lease", valueName: "seconds", in: 0.2...86_400, default: 30,
        help: "How long a worker's claim on a record lasts unless renewed (renewed every third of it while "
            + "building); a crashed worker's records are taken over after this.")
    /// `--max-attempts N`.
    static let maxAttempts: OptionKey<Int> = .integer(
        "max-attempts", in: 1...1000, default: 5, help: "Claims of a failing record before workers leave it alone.")
    /// `--batch N`.
    static let batch: OptionKey<Int?> = .integer(
        "batch", in: 1...1024, defaultHelp: "the number of jobs", help: "Records claimed at a time.")

    /// The lease.
    static func lease(_ arguments: ParsedArguments) throws(UsageError) -> Duration {
        .milliseconds(Int64((try arguments[lease] * 1000).rounded()))
    }

    /// The queue with `--max-attempts`.
    static func queue(_ arguments: ParsedArguments, store: CatalogStore) throws(UsageError) -> BuildQueue {
        BuildQueue(store: store, maxAttempts: try arguments[maxAttempts])
    }

    /// `--batch`, or `jobs`.
    static func batch(_ arguments: ParsedArguments, jobs: Int) throws(UsageError) -> Int {
        try arguments[batch] ?? jobs
    }
}
