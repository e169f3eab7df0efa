// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// Everything one `thumbkit bench` run measured: per job and set, per tool, throughput, time,
/// memory and quality, with the machine and tool versions. Encodes to the `--json` file.
///
/// JSON keys are the property names (camelCase). Optional figures (quality for floors, for
/// example) are written as `null`, never left out, so every key of the schema is always there;
/// an infinite PSNR (identical images) is also `null`.
package struct BenchReport: Sendable, Hashable, Codable {
    /// The JSON layout version; bumped when a key changes meaning or goes away.
    package static let currentFormat = 1

    /// The layout version (``currentFormat`` when written).
    package var format: Int
    /// When the run started.
    package var date: Date
    /// The machine and the tools.
    package var environment: Environment
    /// How the run was made.
    package var settings: Settings
    /// One entry per job and set, in table order.
    package var jobs: [Job]

    package init(date: Date, environment: Environment, settings: Settings, jobs: [Job]) {
        self.format = Self.currentFormat
        self.date = date
        self.environment = environment
        self.settings = settings
        self.jobs = jobs
    }

    /// The machine and the tools that ran.
    package struct Environment: Sendable, Hashable, Codable {
        /// `model name` from /proc/cpuinfo.
        package var cpuModel: String
        /// Processors available to the run.
        package var cores: Int
        /// Operating system and kernel (`Debian GNU/Linux 12 (bookworm), Linux 6.1.0`).
        package var os: String
        /// One line for the history: CPU, cores and OS.
        package var machine: String
        /// `thumbkit --version`'s number.
        package var thumbkitVersion: String
        /// `git rev-parse HEAD` where the run started, or `unknown`.
        package var gitCommit: String
        /// Every tool timed, with its version line.
        package var tools: [BenchPeer]

        package init(
            cpuModel: String, cores: Int, os: String, machine: String, thumbkitVersion: String, gitCommit: String,
            tools: [BenchPeer]
        ) {
            self.cpuModel = cpuModel
            self.cores = cores
            self.os = os
            self.machine = machine
            self.thumbkitVersion = thumbkitVersion
            self.gitCommit = gitCommit
            self.tools = tools
        }
    }

    /// The options of the run.
    package struct Settings: Sendable, Hashable, Codable {
        /// The corpus folder.
        package var corpus: String
        /// Timed runs per tool.
        package var runs: Int
        /// Untimed runs per tool before them.
        package var warmupRuns: Int
        /// Parallelism given to every tool (`-j`).
        package var parallelJobs: Int
        /// Whether peers were asked for (`--peers`).
        package var peers: Bool
        /// Whether the floors were asked for (`--limit`).
        package var limit: Bool
        /// Whether a linear-light reference was scored too (`--linear`).
        package var linearLight: Bool

        package init(
            corpus: String, runs: Int, warmupRuns: Int, parallelJobs: Int, peers: Bool, limit: Bool, linearLight: Bool
        ) {
            self.corpus = corpus
            self.runs = runs
            self.warmupRuns = warmupRuns
            self.parallelJobs = parallelJobs
            self.peers = peers
            self.limit = limit
            self.linearLight = linearLight
        }
    }

    /// What a job measures.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// Every tool resizes every picture of a corpus set (scored for quality).
        case resize
        /// ThumbKit builds the demo catalog (`icons`; not scored, no peers).
        case catalogBuild
    }

    /// What a job's ``Job/images`` counts, and so what images/s means.
    package enum ImageCount: String, Sendable, Hashable, Codable {
        /// The input pictures (one output each): the resize jobs.
        case inputs
        /// The image files written: the catalog build, which makes many outputs per picture.
        case outputs
    }

    /// One job on one set (or, for the catalog build, on the demo catalog).
    package struct Job: Sendable, Hashable, Codable {
        /// The job's name (`bug-thumb`).
        package var name: String
        /// The set (`jpeg`, `png`), or `demo` for the catalog build.
        package var set: String
        /// What the job makes.
        package var summary: String
        /// Resize or catalog build.
        package var kind: Kind
        /// Per run: the input pictures (resize) or the image files written (catalog build), as
        /// ``imagesAre`` says; images/s divides this by the median wall time.
        package var images: Int
        /// Whether ``images`` counts inputs or outputs.
        package var imagesAre: ImageCount
        /// Source pictures decoded per run (for a resize job, the same as ``images``).
        package var sources: Int
        /// The stored megapixels of the source pictures, once per decode, summed: what MP/s
        /// divides by the median wall time.
        package var megapixels: Double
        /// `jpeg` or `png`; `mixed` for the catalog build (JPEG thumbnails, PNG strips and icons).
        package var outputFormat: String
        /// ThumbKit first, then peers, then floors.
        package var tools: [ToolResult]
        /// What was measured, as one digest: ``BenchCorpus/identity(of:)`` of the set (file
        /// names, sizes and content hashes), or of the demo catalog's pictures for a catalog
        /// build. Empty when unknown (a file written before it existed). The history compares
        /// only runs with the same digest.
        package var corpusDigest: String

        package init(
            name: String, set: String, summary: String, kind: Kind = .resize, images: Int,
            imagesAre: ImageCount = .inputs, sources: Int? = nil, megapixels: Double, outputFormat: String,
            tools: [ToolResult], corpusDigest: String = ""
        ) {
            self.corpusDigest = corpusDigest
            self.name = name
            self.set = set
            self.summary = summary
            self.kind = kind
            self.images = images
            self.imagesAre = imagesAre
            self.sources = sources ?? images
            self.megapixels = megapixels
            self.outputFormat = outputFormat
            self.tools = tools
        }

        private enum CodingKeys: String, CodingKey {
            case name, set, summary, kind, images, imagesAre, sources, megapixels, outputFormat, tools
            case corpusDigest
        }

        /// Reads a job; a file written before `kind`, `imagesAre` and `sources` existed reads
        /// as a resize job over its input pictures.
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            set = try c.decode(String.self, forKey: .set)
            summary = try c.decode(String.self, forKey: .summary)
            kind = try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .resize
            images = try c.decode(Int.self, forKey: .images)
            imagesAre = try c.decodeIfPresent(ImageCount.self, forKey: .imagesAre) ?? .inputs
            sources = try c.decodeIfPresent(Int.self, forKey: .sources) ?? images
            megapixels = try c.decode(Double.self, forKey: .megapixels)
            outputFormat = try c.decode(String.self, forKey: .outputFormat)
            tools = try c.decode([ToolResult].self, forKey: .tools)
            corpusDigest = try c.decodeIfPresent(String.self, forKey: .corpusDigest) ?? ""
        }

        /// `bug-thumb/jpeg`: the job column of the history.
        package var key: String { "\(name)/\(set)" }

        /// ThumbKit's result, when it ran.
        package var thumbkit: ToolResult? { tools.first { $0.tool == BenchTool.thumbkit.rawValue } }
    }

    /// Smallest, median and largest of the timed runs.
    package struct Spread: Sendable, Hashable, Codable {
        package var min: Double
        package var median: Double
        package var max: Double

        package init(min: Double, median: Double, max: Double) {
            self.min = min
            self.median = median
            self.max = max
        }
    }

    /// Mean and worst of a quality score over the compared outputs. A non-finite value (the
    /// PSNR of identical images) is written as `null` and read back as +infinity.
    package struct Quality: Sendable, Hashable, Codable {
        package var mean: Double
        package var min: Double

        package init(mean: Double, min: Double) {
            self.mean = mean
            self.min = min
        }

        private enum CodingKeys: String, CodingKey { case mean, min }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mean = try container.decodeIfPresent(Double.self, forKey: .mean) ?? .infinity
            min = try container.decodeIfPresent(Double.self, forKey: .min) ?? .infinity
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if mean.isFinite {
                try container.encode(mean, forKey: .mean)
            } else {
                try container.encodeNil(forKey: .mean)
            }
            if min.isFinite { try container.encode(min, forKey: .min) } else { try container.encodeNil(forKey: .min) }
        }
    }

    /// One tool on one job and set.
    package struct ToolResult: Sendable, Hashable, Codable {
        /// ``BenchTool`` raw value (`thumbkit`, `vipsthumbnail`, `floor-djpeg`…).
        package var tool: String
        /// Ours, peer or floor.
        package var role: BenchTool.Role
        /// Images ÷ median wall time.
        package var imagesPerSecond: Double
        /// Input megapixels ÷ median wall time.
        package var megapixelsPerSecond: Double
        /// Wall time of the timed runs.
        package var wallSeconds: Spread
        /// Median user + system CPU time of a run.
        package var cpuSeconds: Double
        /// Largest peak resident set of one process, over the runs.
        package var peakRSSBytes: Int
        /// SSIM against the reference (nil when nothing was compared).
        package var ssim: Quality?
        /// PSNR in dB against the reference, over the outputs that differ from it (see
        /// ``identicalOutputs``).
        package var psnr: Quality?
        /// SSIM against the linear-light reference (with `--linear`).
        package var ssimLinear: Quality?
        /// PSNR against the linear-light reference (with `--linear`).
        package var psnrLinear: Quality?
        /// Outputs compared with the reference.
        package var scoredOutputs: Int
        /// Compared outputs equal to the reference sample for sample (infinite PSNR, left out
        /// of the PSNR mean and worst).
        package var identicalOutputs: Int
        /// Outputs not compared because their size differs from the reference's.
        package var sizeMismatches: Int
        /// Inputs the tool wrote no output for.
        package var missingOutputs: Int
        /// Outputs that could not be read or were too small to score.
        package var unreadableOutputs: Int
        /// Distinct failures (a process that failed to start or exited with an error).
        package var failures: [String]
        /// ThumbKit's images/s ÷ this tool's (above 1: ThumbKit is faster); nil without a
        /// ThumbKit figure.
        package var speedRatio: Double?
        /// How the tool crops a fill box; its quality is scored against a reference cut the
        /// same way (nil for tools that write no outputs).
        package var cropGeometry: BenchCropGeometry?
        /// The largest distance, in output pixels, between the tool's crop centre and ThumbKit's
        /// exact one over the scored outputs: geometry, reported apart from quality (nil when
        /// nothing was scored).
        package var centringOffsetPixels: Double?

        package init(
            tool: String, role: BenchTool.Role, imagesPerSecond: Double, megapixelsPerSecond: Double,
            wallSeconds: Spread, cpuSeconds: Double, peakRSSBytes: Int, ssim: Quality? = nil, psnr: Quality? = nil,
            ssimLinear: Quality? = nil, psnrLinear: Quality? = nil, scoredOutputs: Int = 0, identicalOutputs: Int = 0,
            sizeMismatches: Int = 0,
            missingOutputs: Int = 0, unreadableOutputs: Int = 0, failures: [String] = [], speedRatio: Double? = nil,
            cropGeometry: BenchCropGeometry? = nil, centringOffsetPixels: Double? = nil
        ) {
            self.cropGeometry = cropGeometry
            self.centringOffsetPixels = centringOffsetPixels
            self.tool = tool
            self.role = role
            self.imagesPerSecond = imagesPerSecond
            self.megapixelsPerSecond = megapixelsPerSecond
            self.wallSeconds = wallSeconds
            self.cpuSeconds = cpuSeconds
            self.peakRSSBytes = peakRSSBytes
            self.ssim = ssim
            self.psnr = psnr
            self.ssimLinear = ssimLinear
            self.psnrLinear = psnrLinear
            self.scoredOutputs = scoredOutputs
            self.identicalOutputs = identicalOutputs
            self.sizeMismatches = sizeMismatches
            self.missingOutputs = missingOutputs
            self.unreadableOutputs = unreadableOutputs
            self.failures = failures
            self.speedRatio = speedRatio
        }

        private enum CodingKeys: String, CodingKey {
            case tool, role, imagesPerSecond, megapixelsPerSecond, wallSeconds, cpuSeconds, peakRSSBytes
            case ssim, psnr, ssimLinear, psnrLinear, scoredOutputs, identicalOutputs, sizeMismatches, missingOutputs
            case unreadableOutputs, failures, speedRatio, cropGeometry, centringOffsetPixels
        }

        /// Reads a result; a file written before the crop geometry was recorded reads without it.
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            tool = try c.decode(String.self, forKey: .tool)
            role = try c.decode(BenchTool.Role.self, forKey: .role)
            imagesPerSecond = try c.decode(Double.self, forKey: .imagesPerSecond)
            megapixelsPerSecond = try c.decode(Double.self, forKey: .megapixelsPerSecond)
            wallSeconds = try c.decode(Spread.self, forKey: .wallSeconds)
            cpuSeconds = try c.decode(Double.self, forKey: .cpuSeconds)
            peakRSSBytes = try c.decode(Int.self, forKey: .peakRSSBytes)
            ssim = try c.decodeIfPresent(Quality.self, forKey: .ssim)
            psnr = try c.decodeIfPresent(Quality.self, forKey: .psnr)
            ssimLinear = try c.decodeIfPresent(Quality.self, forKey: .ssimLinear)
            psnrLinear = try c.decodeIfPresent(Quality.self, forKey: .psnrLinear)
            scoredOutputs = try c.decode(Int.self, forKey: .scoredOutputs)
            identicalOutputs = try c.decodeIfPresent(Int.self, forKey: .identicalOutputs) ?? 0
            sizeMismatches = try c.decode(Int.self, forKey: .sizeMismatches)
            missingOutputs = try c.decode(Int.self, forKey: .missingOutputs)
            unreadableOutputs = try c.decode(Int.self, forKey: .unreadableOutputs)
            failures = try c.decode([String].self, forKey: .failures)
            speedRatio = try c.decodeIfPresent(Double.self, forKey: .speedRatio)
            cropGeometry = try c.decodeIfPresent(BenchCropGeometry.self, forKey: .cropGeometry)
            centringOffsetPixels = try c.decodeIfPresent(Double.self, forKey: .centringOffsetPixels)
        }

        /// Writes every key, optional ones as `null`.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(tool, forKey: .tool)
            try c.encode(role, forKey: .role)
            try c.encode(imagesPerSecond, forKey: .imagesPerSecond)
            try c.encode(megapixelsPerSecond, forKey: .megapixelsPerSecond)
            try c.encode(wallSeconds, forKey: .wallSeconds)
            try c.encode(cpuSeconds, forKey: .cpuSeconds)
            try c.encode(peakRSSBytes, forKey: .peakRSSBytes)
            try c.encode(ssim, forKey: .ssim)
            try c.encode(psnr, forKey: .psnr)
            try c.encode(ssimLinear, forKey: .ssimLinear)
            try c.encode(psnrLinear, forKey: .psnrLinear)
            try c.encode(scoredOutputs, forKey: .scoredOutputs)
            try c.encode(identicalOutputs, forKey: .identicalOutputs)
            try c.encode(sizeMismatches, forKey: .sizeMismatches)
            try c.encode(missingOutputs, forKey: .missingOutputs)
            try c.encode(unreadableOutputs, forKey: .unreadableOutputs)
            try c.encode(failures, forKey: .failures)
            try c.encode(speedRatio, forKey: .speedRatio)
            try c.encode(cropGeometry, forKey: .cropGeometry)
            try c.encode(centringOffsetPixels, forKey: .centringOffsetPixels)
        }
    }

    /// The figures the benchmark history keeps: one ``BenchResult`` per job, set and tool
    /// (job `bug-thumb/jpeg`), each with what makes runs comparable: the corpus digest, the
    /// image count and the number of timed runs.
    package var historyResults: [BenchResult] {
        jobs.flatMap { job in
            job.tools.map { tool in
                BenchResult(
                    job: job.key, tool: tool.tool, imagesPerSecond: tool.imagesPerSecond,
                    megapixelsPerSecond: tool.megapixelsPerSecond, wallMedianSeconds: tool.wallSeconds.median,
                    peakRSSBytes: tool.peakRSSBytes, ssim: tool.ssim?.mean, corpusDigest: job.corpusDigest,
                    images: job.images, timedRuns: settings.runs)
            }
        }
    }
}
