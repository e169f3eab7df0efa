import Foundation
import ThumbKit

/// One whole benchmark: times every tool on every job and set (``BenchRunner``), scores the
/// outputs (``BenchQuality``) and gathers the figures into a ``BenchReport``.
public struct BenchSession: Sendable {
    /// What to run.
    public struct Options: Sendable {
        public var corpus: BenchCorpus
        /// Jobs to run (disabled ones are skipped).
        public var jobs: [BenchJob]
        /// Tools found on this machine: ThumbKit, peers and floors, in table order.
        public var tools: [BenchPeer]
        /// Timed runs per tool.
        public var runs: Int
        /// Untimed runs per tool first.
        public var warmupRuns: Int
        /// Parallelism given to every tool, and threads for quality scoring.
        public var parallel: Int
        /// Score against a linear-light reference too.
        public var linearLight: Bool
        public var programs: BenchPrograms
        /// Where outputs and logs go (removed by the caller).
        public var workFolder: String
        /// Recorded in the report's settings.
        public var peersRequested: Bool
        public var limitRequested: Bool

        public init(
            corpus: BenchCorpus, jobs: [BenchJob], tools: [BenchPeer], runs: Int, warmupRuns: Int = 1, parallel: Int,
            linearLight: Bool, programs: BenchPrograms, workFolder: String, peersRequested: Bool, limitRequested: Bool
        ) {
            self.corpus = corpus
            self.jobs = jobs
            self.tools = tools
            self.runs = runs
            self.warmupRuns = warmupRuns
            self.parallel = parallel
            self.linearLight = linearLight
            self.programs = programs
            self.workFolder = workFolder
            self.peersRequested = peersRequested
            self.limitRequested = limitRequested
        }
    }

    /// Where a long run is, for a progress line.
    public enum Progress: Sendable {
        /// About to time `tool` on `key` (run `done + 1` of `total`).
        case timing(done: Int, total: Int, key: String, tool: String)
        /// `done` of `total` pictures of `set` scored.
        case scoring(done: Int, total: Int, set: BenchImageSet)
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Runs everything and returns the report (no history is written here).
    public func run(
        environment: BenchReport.Environment, date: Date = Date(),
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) -> BenchReport {
        let runner = BenchRunner(runs: options.runs, warmupRuns: options.warmupRuns, workFolder: options.workFolder)
        let timings = runner.run(groups()) { done, total, entry in
            progress(.timing(done: done, total: total, key: entry.key, tool: entry.tool))
        }
        var scores: [String: [String: BenchQuality.Score]] = [:]
        for set in BenchImageSet.allCases {
            let targets = qualityTargets(set: set, timings: timings)
            guard !targets.isEmpty else { continue }
            let setScores = BenchQuality.score(
                files: options.corpus.files(set), targets: targets, linearLight: options.linearLight,
                threads: options.parallel
            ) { done, total in progress(.scoring(done: done, total: total, set: set)) }
            scores.merge(setScores) { $1 }
        }
        let settings = BenchReport.Settings(
            corpus: options.corpus.root, runs: options.runs, warmupRuns: options.warmupRuns,
            parallelJobs: options.parallel, peers: options.peersRequested, limit: options.limitRequested,
            linearLight: options.linearLight)
        return BenchReport(
            date: date, environment: environment, settings: settings, jobs: assemble(timings: timings, scores: scores))
    }

    /// The (job, set) pairs that run, in table order.
    var work: [(job: BenchJob, set: BenchImageSet)] {
        options.jobs.filter(\.isEnabled).flatMap { job in
            job.sets.filter { !options.corpus.files($0).isEmpty }.map { (job, $0) }
        }
    }

    /// One group per job and set, one entry per tool that runs it.
    func groups() -> [[BenchRunner.Entry]] {
        let corpus = options.corpus
        let parallel = options.parallel
        let programs = options.programs
        return work.map { job, set in
            options.tools.compactMap { peer -> BenchRunner.Entry? in
                let tool = peer.tool
                guard job.template(for: tool, set: set) != nil else { return nil }
                return BenchRunner.Entry(key: "\(job.name)/\(set.rawValue)", tool: tool.rawValue) { output in
                    job.workload(
                        for: tool, set: set, corpus: corpus, output: output, parallel: parallel, programs: programs)!
                }
            }
        }
    }

    /// The quality targets of the resize jobs on `set`: every tool that writes outputs.
    func qualityTargets(set: BenchImageSet, timings: [BenchRunner.Timing]) -> [BenchQuality.Target] {
        work.filter { $0.set == set }.compactMap { job, set in
            guard let resize = job.resize else { return nil }
            let key = "\(job.name)/\(set.rawValue)"
            var folders: [String: String] = [:]
            for timing in timings where timing.key == key {
                guard let tool = BenchTool(rawValue: timing.tool), tool.writesOutputs else { continue }
                folders[timing.tool] = timing.outputFolder
            }
            guard !folders.isEmpty else { return nil }
            return BenchQuality.Target(
                key: key, resize: resize, outputExtension: job.outputFormat(for: set).fileExtension,
                outputFolders: folders)
        }
    }

    /// The report's jobs from the timings and scores.
    func assemble(timings: [BenchRunner.Timing], scores: [String: [String: BenchQuality.Score]]) -> [BenchReport.Job] {
        work.map { job, set in
            let key = "\(job.name)/\(set.rawValue)"
            let files = options.corpus.files(set)
            let megapixels = files.reduce(0) { $0 + $1.megapixels }
            var tools = timings.filter { $0.key == key }.map { timing in
                Self.result(
                    timing: timing, images: files.count, megapixels: megapixels, score: scores[key]?[timing.tool])
            }
            let ours = tools.first { $0.tool == BenchTool.thumbkit.rawValue }?.imagesPerSecond
            for index in tools.indices where tools[index].imagesPerSecond > 0 {
                tools[index].speedRatio = ours.map { $0 / tools[index].imagesPerSecond }
            }
            return BenchReport.Job(
                name: job.name, set: set.rawValue, summary: job.summary, images: files.count, megapixels: megapixels,
                outputFormat: job.outputFormat(for: set).rawValue, tools: tools)
        }
    }

    /// One tool's figures from its timed runs and scores.
    static func result(
        timing: BenchRunner.Timing, images: Int, megapixels: Double, score: BenchQuality.Score?
    ) -> BenchReport.ToolResult {
        let walls = Statistics.Summary(timing.runs.map(\.wallSeconds))
        let cpu = Statistics.Summary(timing.runs.map(\.cpuSeconds))
        let median = walls?.median ?? 0
        let role = BenchTool(rawValue: timing.tool)?.role ?? .peer
        return BenchReport.ToolResult(
            tool: timing.tool, role: role,
            imagesPerSecond: median > 0 ? Double(images) / median : 0,
            megapixelsPerSecond: median > 0 ? megapixels / median : 0,
            wallSeconds: BenchReport.Spread(min: walls?.min ?? 0, median: median, max: walls?.max ?? 0),
            cpuSeconds: cpu?.median ?? 0, peakRSSBytes: timing.runs.map(\.peakRSSBytes).max() ?? 0,
            ssim: quality(score?.ssim), psnr: psnrQuality(score?.psnr),
            ssimLinear: quality(score?.ssimLinear), psnrLinear: psnrQuality(score?.psnrLinear),
            scoredOutputs: score?.ssim.count ?? 0, identicalOutputs: score?.psnr.filter { !$0.isFinite }.count ?? 0,
            sizeMismatches: score?.sizeMismatches ?? 0,
            missingOutputs: score?.missing ?? 0, unreadableOutputs: score?.unreadable.count ?? 0,
            failures: timing.failures)
    }

    /// Mean and worst PSNR over the outputs that differ from the reference: an identical output
    /// (infinite PSNR) would make the mean infinite, so it is left out here and counted in
    /// `identicalOutputs`. Infinite (JSON `null`) only when every output is identical.
    static func psnrQuality(_ values: [Double]?) -> BenchReport.Quality? {
        guard let values, !values.isEmpty else { return nil }
        return quality(values.filter(\.isFinite)) ?? BenchReport.Quality(mean: .infinity, min: .infinity)
    }

    /// Mean and worst of `values`, nil when there are none.
    static func quality(_ values: [Double]?) -> BenchReport.Quality? {
        guard let values, let summary = Statistics.Summary(values) else { return nil }
        return BenchReport.Quality(mean: summary.mean, min: summary.min)
    }
}
