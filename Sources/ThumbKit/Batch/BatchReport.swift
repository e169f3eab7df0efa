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

    /// A success of `input` whose decode gave `codecWarnings`: each becomes `<input>: <warning>`,
    /// a colour-profile one among the ``profileNotes``, any other among the ``warnings``.
    package init(succeeded input: String, outputs: [OutputFile], codecWarnings: [String], megapixels: Double) {
        let lines = codecWarnings.map { (DecodeOptions.isColorProfileWarning($0), "\(input): \($0)") }
        self.init(
            input: input, outputs: outputs, error: nil, warnings: lines.filter { !$0.0 }.map(\.1),
            profileNotes: lines.filter(\.0).map(\.1), megapixels: megapixels)
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
