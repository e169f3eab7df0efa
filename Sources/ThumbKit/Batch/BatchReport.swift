// SPDX-License-Identifier: Apache-2.0
/// One output file written by a batch.
package struct OutputFile: Sendable, Hashable, Codable {
    package var path: String
    package var scale: Int
    package var width: Int
    package var height: Int
    package var bytes: Int
}

/// What happened to one input.
package struct BatchItem: Sendable, Codable {
    package var input: String
    package var outputs: [OutputFile]
    /// `<path>: <reason>` when the input failed; nil on success.
    package var error: String?
    package var warnings: [String]
    /// Colour-profile warnings (libpng's "iCCP: known incorrect sRGB profile", see
    /// `DecodeOptions.isColorProfileWarning`), `<path>: <warning>`: they cost colour accuracy,
    /// not image data, so they are never counted as warnings (`thumb` shows them with `--verbose`).
    package var profileNotes: [String]
    /// Input megapixels (stored size; 0 when the header could not be read).
    package var megapixels: Double
    /// Which decoder made the pixels (a ``DecodePath`` name, such as `baseline-dc` or
    /// `libdeflate`); nil when the input failed.
    package var decoder: String?
    /// A JPEG's DCT scale, `n/8` (shrink-on-load); nil for other formats and failures.
    package var decodeScale: String?

    package init(
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

    /// A success of `input` whose pipeline run gave `result`: each codec warning becomes
    /// `<input>: <warning>`, a colour-profile one among the ``profileNotes``, any other among the
    /// ``warnings``; and the decoder it took.
    package init(succeeded input: String, outputs: [OutputFile], result: ThumbnailPipeline.Result) {
        let header = result.header
        let lines = result.warnings.map { (DecodeOptions.isColorProfileWarning($0), "\(input): \($0)") }
        self.init(
            input: input, outputs: outputs, error: nil, warnings: lines.filter { !$0.0 }.map(\.1),
            profileNotes: lines.filter(\.0).map(\.1), megapixels: Double(header.width * header.height) / 1e6)
        decoder = result.decoder?.rawValue
        decodeScale = header.format == .jpeg ? "\(result.scaleNumerator)/8" : nil
    }

    package var succeeded: Bool { error == nil }
}

/// The summary of a batch: counts, throughput and every item. Encodes to the `--json` report.
package struct BatchReport: Sendable, Codable {
    package var files: Int
    package var succeeded: Int
    package var failed: Int
    package var warnings: Int
    package var inputMegapixels: Double
    package var wallSeconds: Double
    package var imagesPerSecond: Double
    package var items: [BatchItem]

    package init(items: [BatchItem], wallSeconds: Double) {
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
    package var exitCode: Int32 { failed == 0 ? 0 : 1 }
}
