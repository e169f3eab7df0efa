// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// A new source picture checked and rendered once, before the catalog is touched, so that the
/// build that follows makes its outputs from this render instead of decoding the file again.
/// The watch folder uses it: one decode both rejects a corrupt upload and makes its outputs.
///
/// The render is the check: limits, every recipe output's size, and a decode with JPEG
/// warnings fatal (a truncated JPEG only makes libjpeg warn). That decode reads every
/// coefficient, and gives the same pixels as the build's own decode, for every file except a
/// progressive JPEG: the build decodes one of those through the progressive fast path, which
/// skips the scans its small outputs do not need (so it would miss a truncated or corrupt one)
/// and which JPEG warnings being fatal turns off. A progressive JPEG is therefore still checked
/// by `SourceImage.validate` and decoded again by the build: ``CatalogBuilder/prepare(_:sha256:for:)``
/// returns nil for it, and for a kind without recipes.
package struct PreparedImage: Sendable {
    /// The hash of the bytes rendered: the build uses the render only for a source with it.
    package let sha256: String
    /// What was rendered, in order.
    package let variants: [ResizeOptions]
    /// One image per variant.
    package let images: [PixelBuffer]

    /// The images for `wanted`, when they are exactly the variants rendered (a subset would
    /// have picked another shrink-on-load scale, hence other pixels); nil otherwise.
    func images(for wanted: [ResizeOptions], sha256 wantedSHA: String) -> [PixelBuffer]? {
        wantedSHA == sha256 && wanted == variants ? images : nil
    }
}

extension CatalogBuilder {
    /// Checks `source` as a new picture for a record of `kind` and renders that kind's recipe
    /// outputs from it (see ``PreparedImage``); nil when the picture was only checked (a
    /// progressive JPEG, or no recipe for `kind`).
    ///
    /// - Throws: the decoder's error when the picture is over a limit, corrupt or truncated.
    package func prepare(
        _ source: ImageSource, sha256: String, for kind: RecordKind
    ) throws(DecodeError) -> PreparedImage? {
        // In the order `BuildPlanner.recipeOutputs` plans them: recipe by recipe, scale by scale.
        let variants = recipes.recipes(for: kind).flatMap(\.variants)
        let header = source.header
        guard !variants.isEmpty, !(header.format == .jpeg && header.isProgressive) else {
            try SourceImage.validate(source, limits: limits)
            return nil
        }
        // As `UnitBuild` renders one record (its threads are the builder's jobs, a heavy decode
        // holds the builder's slot), warnings fatal.
        // The encodings do not matter here: only the images are kept, and the build encodes them.
        let pipeline = ThumbnailPipeline(
            variants: variants.map { ThumbnailPipeline.Variant(resize: $0, encoding: EncodeOptions()) },
            decode: DecodeOptions(limits: limits, failOnWarning: header.format == .jpeg))
        let heavy = pipeline.isHeavy(source)
        let rendered = try heavySlot.run(heavy: heavy) { () throws(DecodeError) in
            try pipeline.render(source, threads: jobs, spareSlot: heavy ? nil : heavySlot)
        }
        return PreparedImage(sha256: sha256, variants: variants, images: rendered.images)
    }
}
