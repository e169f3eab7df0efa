// SPDX-License-Identifier: Apache-2.0
/// The one path from a source to encoded thumbnails: header (already read), shrink-on-load
/// decode once, one resize per scale, one encode per scale. `thumb` (through `BatchRunner`) and
/// `serve` both go through it, so the same request and encoding give the same bytes whichever
/// caller asks; writing the results (to files, a socket or the standard output) is the caller's.
package struct ThumbnailPipeline: Sendable {
    /// The box, the scales and how the source is decoded.
    package var request: ThumbnailRequest
    /// How every scale is encoded.
    package var encoding: EncodeOptions

    package init(request: ThumbnailRequest, encoding: EncodeOptions) {
        self.request = request
        self.encoding = encoding
    }

    /// One encoded scale.
    package struct Output: Sendable {
        package var scale: Int
        package var width: Int
        package var height: Int
        package var bytes: [UInt8]
    }

    /// Every scale of one source, encoded.
    package struct Result: Sendable {
        /// The source's header.
        package var header: ImageHeader
        /// One per scale of the request, in its order.
        package var outputs: [Output]
        /// Codec and colour warnings that did not stop the decode.
        package var warnings: [String]
    }

    /// Decodes `source` once and encodes every scale. Fails as a whole: a decode, limit or
    /// encode failure leaves no partial result. `outputPaths` (one per scale) name the outputs
    /// in encoder errors; `deadline` is checked once more after the last encode.
    package func run(
        _ source: ImageSource, threads: Int = 1, deadline: Deadline, outputPaths: [String]? = nil
    ) throws -> Result {
        let set = try Thumbnailer.make(from: source, request: request, threads: threads, deadline: deadline)
        var outputs: [Output] = []
        for (index, (scale, image)) in set.images.enumerated() {
            let path = outputPaths?[index] ?? source.path
            let bytes = try ImageEncoders.encode(image, options: encoding, path: path, profile: set.colorProfile)
            outputs.append(Output(scale: scale, width: image.width, height: image.height, bytes: bytes))
        }
        try deadline.check(path: source.path)
        return Result(header: set.header, outputs: outputs, warnings: set.warnings)
    }
}
