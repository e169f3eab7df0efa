// SPDX-License-Identifier: Apache-2.0
/// The one path from a source to thumbnails: the header (already read), one shrink-on-load
/// decode, one resize per variant, one encode per variant. Every caller goes through it: `thumb`
/// (through `BatchRunner`), `serve`, the catalog's `build` (and so `watch` and `worker`), and the
/// desktop's `xdg` and `thumbnailer` (which render here and encode their own PNG, with the
/// thumbnail cache's text chunks). So the same variant and encoding give the same bytes
/// whichever caller asks, and a decode is judged memory-heavy (`isHeavy`) the same way
/// everywhere. Writing the results (to files, a socket or the standard output) is the caller's.
package struct ThumbnailPipeline: Sendable {
    /// One output: how it is resized and how it is encoded.
    package struct Variant: Sendable, Hashable {
        package var resize: ResizeOptions
        package var encoding: EncodeOptions
        /// Flatten the resized image onto `encoding.background` before encoding (an output
        /// that must be opaque whatever the source, such as a catalog recipe's).
        package var flatten: Bool
        /// The scale this variant is of its box (1 for @1x), reported with its output.
        package var scale: Int

        package init(resize: ResizeOptions, encoding: EncodeOptions, flatten: Bool = false, scale: Int = 1) {
            self.resize = resize
            self.encoding = encoding
            self.flatten = flatten
            self.scale = scale
        }
    }

    /// The variants, planned from the source's path (a box too large to scale is refused in
    /// that path's name).
    private enum Plan: Sendable {
        case scales(ThumbnailRequest, EncodeOptions)
        case variants([Variant])
    }

    private let plan: Plan
    /// How the source is decoded (limits, warnings, colour).
    package let decode: DecodeOptions
    /// The JPEG shrink-on-load margin: the decoded image has at least this many times the
    /// resolution of the most demanding variant.
    package let shrinkOnLoadMargin: Double

    /// Every scale of `request`'s box, each encoded with `encoding` (`thumb` and `serve`).
    package init(request: ThumbnailRequest, encoding: EncodeOptions) {
        plan = .scales(request, encoding)
        decode = request.decode
        shrinkOnLoadMargin = request.shrinkOnLoadMargin
    }

    /// Each of `variants`, from one decode (the catalog's recipes, the desktop's sizes).
    package init(variants: [Variant], decode: DecodeOptions, shrinkOnLoadMargin: Double = 2) {
        precondition(!variants.isEmpty, "A pipeline makes at least one variant.")
        precondition(shrinkOnLoadMargin >= 1, "The shrink-on-load margin must be ≥ 1.")
        plan = .variants(variants)
        self.decode = decode
        self.shrinkOnLoadMargin = shrinkOnLoadMargin
    }

    /// One encoded variant.
    package struct Output: Sendable {
        package var scale: Int
        package var width: Int
        package var height: Int
        package var bytes: [UInt8]
    }

    /// Every variant of one source, encoded.
    package struct Result: Sendable {
        /// The source's header.
        package var header: ImageHeader
        /// One per variant, in order.
        package var outputs: [Output]
        /// Codec and colour warnings that did not stop the decode.
        package var warnings: [String]
        /// Which decoder made the pixels.
        package var decoder: DecodePath?
        /// The JPEG DCT scale decoded at, as a numerator over 8 (8 for other formats).
        package var scaleNumerator: Int
    }

    /// The variants for a source at `path`.
    package func variants(path: String) throws(DecodeError) -> [Variant] {
        switch plan {
        case .variants(let variants):
            return variants
        case .scales(let request, let encoding):
            return zip(request.scales, try request.variants(path: path)).map {
                Variant(resize: $1, encoding: encoding, scale: $0)
            }
        }
    }

    /// True when decoding `source` for these variants holds enough memory at once
    /// (`Thumbnailer.decodeMemoryEstimate` ≥ `BatchScheduler.heavyBytes`) that such decodes
    /// should take turns (`HeavyDecodeSlot`).
    package func isHeavy(_ source: ImageSource) -> Bool {
        let resizes = ((try? variants(path: source.path)) ?? []).map(\.resize)
        return Thumbnailer.decodeMemoryEstimate(
            source, variants: resizes, decode: decode, shrinkOnLoadMargin: shrinkOnLoadMargin)
            >= BatchScheduler.heavyBytes
    }

    /// Decodes `source` once and resizes it for every variant (nothing is encoded), within
    /// `deadline` (nil: `decode.limits.maxSeconds` from now). A PNG too large for the fast
    /// path's everyday memory budget takes it anyway when `spareSlot` (the heavy-decode slot,
    /// which the caller does not hold) is free at that moment, holding it while it decodes.
    package func render(
        _ source: ImageSource, threads: Int = 1, deadline: Deadline? = nil, spareSlot: HeavyDecodeSlot? = nil
    ) throws(DecodeError) -> Thumbnailer.Rendered {
        try Thumbnailer.render(
            source, variants: variants(path: source.path).map(\.resize), decode: decode,
            shrinkOnLoadMargin: shrinkOnLoadMargin, threads: threads, deadline: deadline, spareSlot: spareSlot)
    }

    /// Encodes `images` (one per variant, as `render` gives them for the source at `path`, or
    /// the same images kept from an earlier render) in `profile`. `outputPaths` (one per
    /// variant; `path` without them) name the outputs in encoder errors.
    package func encode(
        _ images: [PixelBuffer], path: String, profile: ColorProfile?, outputPaths: [String]? = nil
    ) throws -> [Output] {
        let variants = try variants(path: path)
        precondition(images.count == variants.count, "One image per variant.")
        var outputs: [Output] = []
        for (index, (variant, image)) in zip(variants, images).enumerated() {
            let final = variant.flatten ? image.flattened(onto: variant.encoding.background) : image
            let output = outputPaths?[index] ?? path
            let bytes = try ImageEncoders.encode(final, options: variant.encoding, path: output, profile: profile)
            outputs.append(Output(scale: variant.scale, width: final.width, height: final.height, bytes: bytes))
        }
        return outputs
    }

    /// Decodes `source` once and encodes every variant. Fails as a whole: a decode, limit or
    /// encode failure leaves no partial result. `outputPaths` (one per variant) name the outputs
    /// in encoder errors; `deadline` is checked once more after the last encode. `spareSlot` as
    /// in `render`.
    package func run(
        _ source: ImageSource, threads: Int = 1, deadline: Deadline, outputPaths: [String]? = nil,
        spareSlot: HeavyDecodeSlot? = nil
    ) throws -> Result {
        let rendered = try render(source, threads: threads, deadline: deadline, spareSlot: spareSlot)
        let outputs = try encode(
            rendered.images, path: source.path, profile: rendered.colorProfile, outputPaths: outputPaths)
        try deadline.check(path: source.path)
        return Result(
            header: rendered.header, outputs: outputs, warnings: rendered.warnings, decoder: rendered.decoder,
            scaleNumerator: rendered.scaleNumerator)
    }
}
