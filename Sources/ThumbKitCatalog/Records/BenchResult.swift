/// One measurement of a benchmark run: one tool on one job.
public struct BenchResult: Sendable, Hashable, Codable {
    /// The run it belongs to (0 before it is stored).
    public var runID: Int
    /// The job, e.g. `jpeg-fill-88`.
    public var job: String
    /// The tool, e.g. `thumbkit` or `vipsthumbnail`.
    public var tool: String
    /// Images per second.
    public var imagesPerSecond: Double
    /// Source megapixels per second.
    public var megapixelsPerSecond: Double
    /// Median wall time of the repetitions, in seconds.
    public var wallMedianSeconds: Double
    /// Peak resident set size in bytes.
    public var peakRSSBytes: Int
    /// Mean SSIM against the reference, when measured.
    public var ssim: Double?

    public init(
        runID: Int = 0, job: String, tool: String, imagesPerSecond: Double, megapixelsPerSecond: Double,
        wallMedianSeconds: Double, peakRSSBytes: Int, ssim: Double? = nil
    ) {
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
