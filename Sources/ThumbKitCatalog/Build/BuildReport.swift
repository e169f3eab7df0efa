// SPDX-License-Identifier: Apache-2.0
/// What one `CatalogBuilder.build` did. Counts are of outputs (one file at one scale), except
/// `failed`, which counts failures (one per record, rating icon set or logo that could not be
/// made, each with its line in `failures`).
public struct BuildReport: Sendable, Codable, Hashable {
    /// Outputs made or remade (a row written; for a bug's rating strip, attached).
    public var made: Int
    /// Outputs that were already there and current (nothing written).
    public var upToDate: Int
    /// Outputs removed: rows no recipe wants any more (with their files), outputs remade under
    /// another name (their old files), and files in the output folder that no row describes.
    public var removed: Int
    /// How many things failed (`failures.count`).
    public var failed: Int
    /// One line per failure, `<path>: <reason>`, in the order they happened.
    public var failures: [String]

    public init(made: Int = 0, upToDate: Int = 0, removed: Int = 0, failed: Int = 0, failures: [String] = []) {
        self.made = made
        self.upToDate = upToDate
        self.removed = removed
        self.failed = failed
        self.failures = failures
    }

    /// Adds `other`'s counts and failures to this one.
    mutating func add(_ other: BuildReport) {
        made += other.made
        upToDate += other.upToDate
        removed += other.removed
        failed += other.failed
        failures += other.failures
    }

    /// Records one failure line.
    mutating func fail(_ line: String) {
        failed += 1
        failures.append(line)
    }

    /// `3 made, 12 up to date, 1 removed, 0 failed`.
    public var summary: String { "\(made) made, \(upToDate) up to date, \(removed) removed, \(failed) failed" }
}
