// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// The benchmark history (a `BenchHistoryStore`): saving a run, and the detail view of one run, the
/// Weight History detail view applied to performance: each figure against the lowest, highest
/// and average of the comparable runs in the same calendar month: the same job and tool on the
/// same corpus (``BenchResult/corpusDigest``), with as many images and timed runs
/// (``BenchResult/isComparable(with:)``). A result saved before the corpus was recorded is
/// compared with itself only.
package enum BenchHistory {
    /// How a run's figure stands against its month's average.
    package enum Standing: String, Sendable, Hashable, Codable {
        case better
        case same
        case worse
    }

    /// One job and tool of a run against the comparable runs of its month (the run itself
    /// included).
    package struct Comparison: Sendable, Hashable, Codable {
        /// `bug-thumb/jpeg`.
        package let job: String
        /// `thumbkit`.
        package let tool: String
        /// The run's images/s.
        package let value: Double
        /// Lowest, highest and mean images/s of the month's runs of this job and tool.
        package let monthMin: Double
        package let monthMax: Double
        package let monthMean: Double
        /// How many runs of the month the statistics come from (the run itself included):
        /// those that measured this job and tool on the same corpus, images and timed runs.
        package let monthRuns: Int
        /// Runs of the month that measured this job and tool but are not comparable (another
        /// corpus, image count or run count, or saved before the corpus was recorded).
        package let incomparableRuns: Int
        /// Whether the result records its corpus (false for one saved before that existed).
        package let corpusKnown: Bool
        /// The result's images per run and timed runs (0 when not recorded).
        package let images: Int
        package let timedRuns: Int

        /// How far below the month's best the run is, as a fraction of the best (0 for the best).
        package var lossFromBest: Double { monthMax > 0 ? (monthMax - value) / monthMax : 0 }
        /// How far above the month's worst the run is, as a fraction of the worst (0 for the worst).
        package var gainOverWorst: Double { monthMin > 0 ? (value - monthMin) / monthMin : 0 }
        /// Higher throughput is better; within a relative 10⁻⁹ of the mean counts as the same.
        package var standing: Standing {
            let tolerance = 1e-9 * max(abs(monthMean), 1)
            if value > monthMean + tolerance { return .better }
            if value < monthMean - tolerance { return .worse }
            return .same
        }
    }

    /// One run and its comparisons.
    package struct Detail: Sendable, Hashable {
        package let run: BenchRun
        /// The calendar month the run falls in.
        package let month: DateInterval
        /// One per job and tool of the run, in the run's order.
        package let comparisons: [Comparison]
    }

    /// Saves `report` as a run of the history: date, git commit, machine and one result per
    /// job, set and tool. One transaction.
    @discardableResult
    package static func save(_ report: BenchReport, note: String = "", to store: BenchHistoryStore) throws -> BenchRun {
        try store.addRun(
            date: report.date, gitCommit: report.environment.gitCommit, machine: report.environment.machine,
            note: note, results: report.historyResults)
    }

    /// The detail view of run `runID`, read from `store` in one snapshot.
    ///
    /// - Throws: ``BenchError/noSuchRun(id:)``, or the store's error.
    package static func detail(runID: Int, store: BenchHistoryStore, calendar: Calendar) throws -> Detail {
        let (runs, results) = try store.runsAndResults()
        guard let run = runs.first(where: { $0.id == runID }) else { throw BenchError.noSuchRun(id: runID) }
        return detail(run: run, runs: runs, results: results, calendar: calendar)
    }

    /// The detail view of `run` among `runs` and every run's `results`. The month is the run's
    /// calendar month in `calendar`'s time zone.
    package static func detail(run: BenchRun, runs: [BenchRun], results: [BenchResult], calendar: Calendar) -> Detail {
        let month =
            calendar.dateInterval(of: .month, for: run.date) ?? DateInterval(start: run.date, duration: 0)
        let sameMonth = Set(
            runs.filter { calendar.isDate($0.date, equalTo: run.date, toGranularity: .month) }.map(\.id))
        let monthResults = results.filter { sameMonth.contains($0.runID) }
        let comparisons = results.filter { $0.runID == run.id }.map { result in
            let sameJob = monthResults.filter { $0.job == result.job && $0.tool == result.tool && $0.runID != run.id }
            let comparable = sameJob.filter { result.isComparable(with: $0) }
            let values = [result.imagesPerSecond] + comparable.map(\.imagesPerSecond)
            return Comparison(
                job: result.job, tool: result.tool, value: result.imagesPerSecond,
                monthMin: values.min() ?? result.imagesPerSecond, monthMax: values.max() ?? result.imagesPerSecond,
                monthMean: values.reduce(0, +) / Double(values.count), monthRuns: values.count,
                incomparableRuns: Set(sameJob.map(\.runID)).subtracting(comparable.map(\.runID)).count,
                corpusKnown: !result.corpusDigest.isEmpty, images: result.images, timedRuns: result.timedRuns)
        }
        return Detail(run: run, month: month, comparisons: comparisons)
    }
}
