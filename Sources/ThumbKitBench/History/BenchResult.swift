// SPDX-License-Identifier: Apache-2.0
/// One measurement of a benchmark run: one tool on one job.
package struct BenchResult: Sendable, Hashable, Codable {
    /// The run it belongs to (0 before it is stored).
    package var runID: Int
    /// The job, e.g. `jpeg-fill-88`.
    package var job: String
    /// The tool, e.g. `thumbkit` or `vipsthumbnail`.
    package var tool: String
    /// Images per second.
    package var imagesPerSecond: Double
    /// Source megapixels per second.
    package var megapixelsPerSecond: Double
    /// Median wall time of the repetitions, in seconds.
    package var wallMedianSeconds: Double
    /// Peak resident set size in bytes.
    package var peakRSSBytes: Int
    /// Mean SSIM against the reference, when measured.
    package var ssim: Double?
    /// The identity of the pictures measured (``BenchReport/Job/corpusDigest``); empty for a
    /// result saved before it was recorded, which is comparable with no other.
    package var corpusDigest: String
    /// Images per timed run (0 when not recorded).
    package var images: Int
    /// Timed runs the median comes from (0 when not recorded).
    package var timedRuns: Int

    package init(
        runID: Int = 0, job: String, tool: String, imagesPerSecond: Double, megapixelsPerSecond: Double,
        wallMedianSeconds: Double, peakRSSBytes: Int, ssim: Double? = nil, corpusDigest: String = "",
        images: Int = 0, timedRuns: Int = 0
    ) {
        self.corpusDigest = corpusDigest
        self.images = images
        self.timedRuns = timedRuns
        self.runID = runID
        self.job = job
        self.tool = tool
        self.imagesPerSecond = imagesPerSecond
        self.megapixelsPerSecond = megapixelsPerSecond
        self.wallMedianSeconds = wallMedianSeconds
        self.peakRSSBytes = peakRSSBytes
        self.ssim = ssim
    }
}

extension BenchResult {
    /// Whether `other` measured the same thing: same job and tool, same known corpus digest,
    /// same image count and same number of timed runs.
    package func isComparable(with other: BenchResult) -> Bool {
        !corpusDigest.isEmpty && corpusDigest == other.corpusDigest && job == other.job && tool == other.tool
            && images == other.images && timedRuns == other.timedRuns
    }
}
