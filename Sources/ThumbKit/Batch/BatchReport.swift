/// One output file written by a batch.
public struct OutputFile: Sendable, Hashable, Codable {
    public var path: String
    public var scale: Int
    public var width: Int
    public var height: Int
    public var bytes: Int
}

/// What happened to one input.
public struct BatchItem: Sendable, Codable {
    public var input: String
    public var outputs: [OutputFile]
    /// `<path>: <reason>` when the input failed; nil on success.
    public var error: String?
    public var warnings: [String]
    /// Colour-profile warnings (libpng's "iCCP: known incorrect sRGB profile", see
    /// `DecodeOptions.isColorProfileWarning`), `<path>: <warning>`: they cost colour accuracy,
    /// not image data, so they are never counted as warnings (`thumb` shows them with `--verbose`).
    public var profileNotes: [String]
    /// Input megapixels (stored size; 0 when the header could not be read).
    public var megapixels: Double

    public init(
        input: String, outputs: [OutputFile], error: String?, warnings: [String], profileNotes: [String] = [],
        megapixels: Double
    ) {
        self.input = input
        self.outputs = outputs
        self.error = error
        self.warnings = warnings
        self.profileNotes = profileNotes
        self.megapixels = megapixels
    }

    /// A success of `input` whose decode gave `codecWarnings`: each becomes `<input>: <warning>`,
    /// a colour-profile one among the ``profileNotes``, any other among the ``warnings``.
    public init(succeeded input: String, outputs: [OutputFile], codecWarnings: [String], megapixels: Double) {
        let lines = codecWarnings.map { (DecodeOptions.isColorProfileWarning($0), "\(input): \($0)") }
        self.init(
            input: input, outputs: outputs, error: nil, warnings: lines.filter { !$0.0 }.map(\.1),
            profileNotes: lines.filter(\.0).map(\.1), megapixels: megapixels)
    }

    public var succeeded: Bool { error == nil }
}

/// The summary of a batch: counts, throughput and every item. Encodes to the `--json` report.
public struct BatchReport: Sendable, Codable {
    public var files: Int
    public var succeeded: Int
    public var failed: Int
    public var warnings: Int
    public var inputMegapixels: Double
    public var wallSeconds: Double
    public var imagesPerSecond: Double
    public var items: [BatchItem]

    public init(items: [BatchItem], wallSeconds: Double) {
        self.items = items
        self.files = items.count
        self.succeeded = items.filter(\.succeeded).count
        self.failed = files - succeeded
        self.warnings = items.reduce(0) { $0 + $1.warnings.count }
        self.inputMegapixels = items.reduce(0) { $0 + $1.megapixels }
        self.wallSeconds = wallSeconds
        self.imagesPerSecond = wallSeconds > 0 ? Double(files) / wallSeconds : 0
    }

    /// 0 when every input succeeded, 1 when any failed (warnings alone do not count).
    public var exitCode: Int32 { failed == 0 ? 0 : 1 }
}
