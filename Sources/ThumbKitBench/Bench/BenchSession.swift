// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// One whole benchmark: times every tool on every job and set (``BenchRunner``), scores the
/// outputs of the resize jobs (``BenchQuality``) and gathers the figures into a ``BenchReport``.
/// A catalog build (`icons`) runs on the demo catalog (``BenchDemoCatalog``) rather than a set.
package struct BenchSession: Sendable {
    /// What to run.
    package struct Options: Sendable {
        package var corpus: BenchCorpus
        /// Jobs to run (disabled ones are skipped).
        package var jobs: [BenchJob]
        /// Tools found on this machine: ThumbKit, peers and floors, in table order.
        package var tools: [BenchPeer]
        /// Timed runs per tool.
        package var runs: Int
        /// Untimed runs per tool first.
        package var warmupRuns: Int
        /// Parallelism given to every tool, and threads for quality scoring.
        package var parallel: Int
        /// Score against a linear-light reference too.
        package var linearLight: Bool
        package var programs: BenchPrograms
        /// Where outputs and logs go (removed by the caller).
        package var workFolder: String
        /// Recorded in the report's settings.
        package var peersRequested: Bool
        package var limitRequested: Bool

        package init(
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
    package enum Progress: Sendable {
        /// Preparing what `key` runs on (the demo catalog of a catalog build), untimed.
        case preparing(key: String)
        /// About to time `tool` on `key` (run `done + 1` of `total`).
        case timing(done: Int, total: Int, key: String, tool: String)
        /// `done` of `total` pictures of `set` scored.
        case scoring(done: Int, total: Int, set: BenchImageSet)
    }

    package let options: Options

    package init(options: Options) {
        self.options = options
    }

    /// Runs everything and returns the report (no history is written here).
    ///
    /// A catalog build first prepares the demo catalog in `workFolder/demo-catalog` (untimed,
    /// once); if that fails, each of its runs fails with the reason and nothing is timed.
    package func run(
        environment: BenchReport.Environment, date: Date = Date(),
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) -> BenchReport {
        var catalog: Result<BenchDemoCatalog, BenchError>?
        if let item = work.first(where: { $0.job.isCatalogBuild }) {
            progress(.preparing(key: item.key))
            let folder = (options.workFolder as NSString).appendingPathComponent("demo-catalog")
            catalog = Result { () throws(BenchError) in try BenchDemoCatalog.prepare(in: folder) }
        }
        let runner = BenchRunner(runs: options.runs, warmupRuns: options.warmupRuns, workFolder: options.workFolder)
        let timings = runner.run(groups(catalog: catalog)) { done, total, entry in
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
        var built: [String: Int] = [:]
        for timing in timings where timing.tool == BenchTool.thumbkit.rawValue {
            if work.contains(where: { $0.key == timing.key && $0.job.isCatalogBuild }) {
                built[timing.key] = BenchDemoCatalog.images(inRun: timing.outputFolder)
            }
        }
        let settings = BenchReport.Settings(
            corpus: options.corpus.root, runs: options.runs, warmupRuns: options.warmupRuns,
            parallelJobs: options.parallel, peers: options.peersRequested, limit: options.limitRequested,
            linearLight: options.linearLight)
        return BenchReport(
            date: date, environment: environment, settings: settings,
            jobs: assemble(timings: timings, scores: scores, catalog: try? catalog?.get(), builtImages: built))
    }

    /// One piece of work: a resize job on a corpus set, or a catalog build (no set).
    struct WorkItem: Sendable {
        let job: BenchJob
        /// The corpus set; nil for a catalog build.
        let set: BenchImageSet?

        /// The set's name, or `demo` for a catalog build.
        var setName: String { self.set?.rawValue ?? BenchJob.demoSetName }
        /// `bug-thumb/jpeg`, `icons/demo`: names the work in groups, reports and the history.
        var key: String { "\(job.name)/\(setName)" }
    }

    /// The work that runs, in table order: each enabled resize job on each of its sets the
    /// corpus has, and each enabled catalog build (which needs no corpus).
    var work: [WorkItem] {
        options.jobs.filter(\.isEnabled).flatMap { job -> [WorkItem] in
            if job.isCatalogBuild { return [WorkItem(job: job, set: nil)] }
            return job.sets.filter { !options.corpus.files($0).isEmpty }.map { WorkItem(job: job, set: $0) }
        }
    }

    /// One group per work item, one entry per tool that runs it. A catalog build's runs each
    /// start from a copy of `catalog`'s database (copied untimed) and are checked to have been
    /// full builds.
    func groups(catalog: Result<BenchDemoCatalog, BenchError>? = nil) -> [[BenchRunner.Entry]] {
        let corpus = options.corpus
        let parallel = options.parallel
        let programs = options.programs
        let missing = BenchError.demoCatalog(path: options.workFolder, reason: "the demo catalog was not prepared")
        let prepared = catalog ?? .failure(missing)
        return work.map { item in
            let job = item.job
            return options.tools.compactMap { peer -> BenchRunner.Entry? in
                let tool = peer.tool
                guard let set = item.set else {
                    guard job.catalogTemplate(for: tool) != nil else { return nil }
                    return BenchRunner.Entry(
                        key: item.key, tool: tool.rawValue,
                        prepare: { output in try prepared.get().copyDatabase(into: output) },
                        verify: { _, log in BenchDemoCatalog.verify(log: log) }
                    ) { output in
                        job.catalogWorkload(for: tool, output: output, parallel: parallel, programs: programs)!
                    }
                }
                guard job.template(for: tool, set: set) != nil else { return nil }
                return BenchRunner.Entry(key: item.key, tool: tool.rawValue) { output in
                    job.workload(
                        for: tool, set: set, corpus: corpus, output: output, parallel: parallel, programs: programs)!
                }
            }
        }
    }

    /// The quality targets of the resize jobs on `set`: every tool that writes outputs.
    func qualityTargets(set: BenchImageSet, timings: [BenchRunner.Timing]) -> [BenchQuality.Target] {
        work.filter { $0.set == set }.compactMap { item in
            guard let resize = item.job.resize else { return nil }
            var folders: [String: String] = [:]
            for timing in timings where timing.key == item.key {
                guard let tool = BenchTool(rawValue: timing.tool), tool.writesOutputs else { continue }
                folders[timing.tool] = timing.outputFolder
            }
            guard !folders.isEmpty else { return nil }
            return BenchQuality.Target(
                key: item.key, resize: resize, outputExtension: item.job.outputFormat(for: set).fileExtension,
                outputFolders: folders)
        }
    }

    /// The report's jobs from the timings and scores.
    ///
    /// - Parameters:
    ///   - catalog: the prepared demo catalog (its sources and megapixels), nil when it could
    ///     not be prepared.
    ///   - builtImages: the image files the last run of each catalog build wrote, by key.
    func assemble(
        timings: [BenchRunner.Timing], scores: [String: [String: BenchQuality.Score]],
        catalog: BenchDemoCatalog? = nil, builtImages: [String: Int] = [:]
    ) -> [BenchReport.Job] {
        work.map { item in
            let key = item.key
            let images: Int
            let sources: Int
            let megapixels: Double
            if let set = item.set {
                let files = options.corpus.files(set)
                images = files.count
                sources = files.count
                megapixels = files.reduce(0) { $0 + $1.megapixels }
            } else {
                images = builtImages[key] ?? 0
                sources = catalog?.sources ?? 0
                megapixels = catalog?.megapixels ?? 0
            }
            var tools = timings.filter { $0.key == key }.map { timing in
                Self.result(timing: timing, images: images, megapixels: megapixels, score: scores[key]?[timing.tool])
            }
            guard let set = item.set else {
                // No peers and nothing to score: the ratio and the quality stay null.
                return BenchReport.Job(
                    name: item.job.name, set: item.setName, summary: item.job.summary, kind: .catalogBuild,
                    images: images, imagesAre: .outputs, sources: sources, megapixels: megapixels,
                    outputFormat: "mixed", tools: tools, corpusDigest: catalog?.identity ?? "")
            }
            let ours = tools.first { $0.tool == BenchTool.thumbkit.rawValue }?.imagesPerSecond
            for index in tools.indices where tools[index].imagesPerSecond > 0 {
                tools[index].speedRatio = ours.map { $0 / tools[index].imagesPerSecond }
            }
            return BenchReport.Job(
                name: item.job.name, set: item.setName, summary: item.job.summary, images: images,
                megapixels: megapixels, outputFormat: item.job.outputFormat(for: set).rawValue, tools: tools,
                corpusDigest: options.corpus.identity(of: set))
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
            failures: timing.failures,
            cropGeometry: BenchTool(rawValue: timing.tool).flatMap { $0.writesOutputs ? $0.cropGeometry : nil },
            centringOffsetPixels: score?.centringOffsets.max())
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
