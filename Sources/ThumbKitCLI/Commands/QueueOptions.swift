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
        "batch", in: 1...1024,
        defaultHelp: "4 × the number of jobs, growing to 64 × while records take under 100 ms a claim",
        help: "Records claimed at a time.")

    /// `--reconnect-timeout SECONDS`: how long a lost PostgreSQL connection may stay lost.
    static let reconnectTimeout: OptionKey<Double> = .number(
        "reconnect-timeout", valueName: "seconds", in: 0...86_400, default: 60,
        help: "PostgreSQL: how long to keep reconnecting a dropped connection (server restart, failover) "
            + "before giving up with exit 1; 0 gives up at once.")

    /// How long a `build` or `worker` transaction may sit idle before the server ends the
    /// session (`CatalogStore.limitIdleTransactions`). Their transactions never wait on anything
    /// but the database and local files, so an idle minute means a stuck or stopped process.
    static let idleTransactionTimeout = Duration.seconds(60)

    /// Reconnection for `store` (PostgreSQL) with `--reconnect-timeout`, each line to `log`,
    /// and the idle-transaction limit of the long-running commands.
    static func reconnect(
        _ arguments: ParsedArguments, store: CatalogStore, log: @escaping @Sendable (String) -> Void
    ) throws {
        let timeout = Duration.milliseconds(Int64((try arguments[reconnectTimeout] * 1000).rounded()))
        store.reconnect(with: PostgresReconnection(timeout: timeout, log: log))
        try store.limitIdleTransactions(to: idleTransactionTimeout)
    }

    /// The lease.
    static func lease(_ arguments: ParsedArguments) throws(UsageError) -> Duration {
        .milliseconds(Int64((try arguments[lease] * 1000).rounded()))
    }

    /// The queue with `--max-attempts`.
    static func queue(_ arguments: ParsedArguments, store: CatalogStore) throws(UsageError) -> BuildQueue {
        BuildQueue(store: store, maxAttempts: try arguments[maxAttempts])
    }

    /// The options' batch and its limit: `--batch` for both (a claim of that many, always), or
    /// `BuildWorker.Options.defaultBatch(jobs:)` (4 × `jobs`) growing to `defaultBatchLimit`.
    static func batch(_ arguments: ParsedArguments, jobs: Int) throws(UsageError) -> (batch: Int, limit: Int) {
        if let given = try arguments[batch] { return (given, given) }
        return (BuildWorker.Options.defaultBatch(jobs: jobs), BuildWorker.Options.defaultBatchLimit(jobs: jobs))
    }
}
