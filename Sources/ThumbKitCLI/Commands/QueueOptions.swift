import ThumbKitCatalog

/// Options of the commands that build through the build queue (`build`, `worker`).
enum QueueOptions {
    /// `--lease SECONDS`: how long a claim lasts without renewal.
    static let lease = OptionSpec.value(
        "lease", valueName: "seconds",
        help: "How long a worker's claim on a record lasts unless renewed (renewed every third of it while "
            + "building); a crashed worker's records are taken over after this.",
        default: "30")
    /// `--max-attempts N`.
    static let maxAttempts = OptionSpec.value(
        "max-attempts", valueName: "n", help: "Claims of a failing record before workers leave it alone.",
        default: "5")
    /// `--batch N`.
    static let batch = OptionSpec.value(
        "batch", valueName: "n", help: "Records claimed at a time.", defaultHelp: "the number of jobs")

    /// The lease (0.2 s to a day).
    static func lease(_ arguments: ParsedArguments) throws(UsageError) -> Duration {
        .milliseconds(Int64((try arguments.double("lease", in: 0.2...86_400)! * 1000).rounded()))
    }

    /// The queue with `--max-attempts`.
    static func queue(_ arguments: ParsedArguments, store: CatalogStore) throws(UsageError) -> BuildQueue {
        BuildQueue(store: store, maxAttempts: try arguments.int("max-attempts", in: 1...1000)!)
    }

    /// `--batch`, or `jobs`.
    static func batch(_ arguments: ParsedArguments, jobs: Int) throws(UsageError) -> Int {
        try arguments.int("batch", in: 1...1024) ?? jobs
    }
}
