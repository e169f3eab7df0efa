// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// One benchmark workload: what every tool is asked to make from each picture of a set.
///
/// The table (``all``): `bug-thumb` (fill-crop 88×88, a 44 pt thumbnail @2x, JPEG q85),
/// `fit-256` (fit inside 256×256, JPEG q85, PNG out for the PNG set), `sharp-jpeg` (the
/// workload of sharp's published performance page: 720 px wide, Lanczos3, JPEG q80; JPEG set
/// only), `webp-256` (fit inside 256×256, WebP q80 with alpha kept, for both sets) and `icons`
/// (the catalog build of the demo catalog, ThumbKit only: see ``BenchDemoCatalog``).
package struct BenchJob: Sendable, Hashable {
    /// The box every tool is given.
    package enum Box: Sendable, Hashable {
        /// Scale to cover, crop the centre: exactly `width` × `height`.
        case fill(width: Int, height: Int)
        /// Scale to fit inside, aspect kept.
        case fit(width: Int, height: Int)
        /// `width` wide, the height following the aspect ratio.
        case fitWidth(Int)
    }

    /// What the job measures.
    package enum Kind: Sendable, Hashable {
        /// Resize every picture of the set into `box` (timed for every tool, scored for quality).
        case resize(Box)
        /// Build the demo catalog (`thumbkit build`): thumbs, rating strips and app icons.
        case catalogBuild
    }

    /// The name used by `--job`, the tables and the history (`bug-thumb`).
    package let name: String
    /// One line for help and reports.
    package let summary: String
    /// The corpus sets it runs on, in order (none for a catalog build, which builds the demo
    /// catalog instead).
    package let sets: [BenchImageSet]
    /// Resize or catalog build.
    package let kind: Kind
    /// Quality of the lossy outputs (JPEG or WebP).
    package let quality: Int
    /// The format written (JPEG or WebP), unless ``keepsPNG`` keeps a PNG input a PNG.
    package let format: ImageFormat
    /// Whether a PNG input gives a PNG output (else every output is in ``format``).
    package let keepsPNG: Bool
    /// Why the job cannot run in this build, or nil when it can.
    package let unavailableReason: String?

    package init(
        name: String, summary: String, sets: [BenchImageSet], kind: Kind, quality: Int, format: ImageFormat = .jpeg,
        keepsPNG: Bool = false, unavailableReason: String? = nil
    ) {
        if case .resize = kind { precondition(!sets.isEmpty, "A resize job runs on at least one set.") }
        precondition(format == .jpeg || format == .webp, "A job writes JPEG or WebP (PNG only through keepsPNG).")
        self.name = name
        self.summary = summary
        self.sets = sets
        self.kind = kind
        self.quality = quality
        self.format = format
        self.keepsPNG = keepsPNG
        self.unavailableReason = unavailableReason
    }

    /// Whether the job can run in this build.
    package var isEnabled: Bool { unavailableReason == nil }

    /// Whether the job builds the demo catalog rather than resizing a corpus set.
    package var isCatalogBuild: Bool {
        if case .catalogBuild = kind { return true }
        return false
    }

    /// What a catalog build runs on, in place of a set: `icons/demo` in reports and the history.
    package static let demoSetName = "demo"

    /// The format written for inputs of `set`.
    package func outputFormat(for set: BenchImageSet) -> ImageFormat {
        keepsPNG && set == .png ? .png : format
    }

    /// The height that stands for "any height" in a width-only box, as `thumbkit thumb -s 720x`
    /// uses it (vipsthumbnail's largest coordinate): the width always decides the fit.
    package static let anyHeight = 10_000_000

    /// The resize every tool is asked for, as ThumbKit's options (nil for a catalog build).
    package var resize: ResizeOptions? {
        guard case .resize(let box) = kind else { return nil }
        switch box {
        case .fill(let width, let height): return ResizeOptions(width: width, height: height, mode: .fill)
        case .fit(let width, let height): return ResizeOptions(width: width, height: height, mode: .fit)
        case .fitWidth(let width): return ResizeOptions(width: width, height: Self.anyHeight, mode: .fit)
        }
    }

    /// The DCT scale (n of n/8) ThumbKit decodes `file` at for this job: the scale
    /// `thumbkit thumb` picks with its default shrink-on-load margin (8 for PNG or a catalog build).
    package func scaleNumerator(for file: BenchCorpus.File, margin: Double = 2) -> Int {
        guard let resize, file.header.format == .jpeg else { return 8 }
        let minimum = ImageProcessors.Resize(resize).minimumLoadScale(
            originalWidth: file.header.width, originalHeight: file.header.height,
            orientation: file.header.orientation, margin: margin)
        return ImageDecoders.scaleNumerator(forMinimumScale: minimum)
    }

    // MARK: The table

    /// A 44 pt list thumbnail at @2x.
    package static let bugThumb = BenchJob(
        name: "bug-thumb", summary: "fill-crop 88x88, JPEG q85", sets: [.jpeg, .png],
        kind: .resize(.fill(width: 88, height: 88)), quality: 85)

    /// A detail image that fits a 256 px box.
    package static let fit256 = BenchJob(
        name: "fit-256", summary: "fit inside 256x256, JPEG q85 (PNG out for PNG in)", sets: [.jpeg, .png],
        kind: .resize(.fit(width: 256, height: 256)), quality: 85, keepsPNG: true)

    /// `fit-256` in WebP at quality 80 (cwebp's, sharp's and ThumbKit's default), alpha kept: the
    /// format of web thumbnails today, beside the peers' own WebP encoders (all libwebp).
    package static let webp256 = BenchJob(
        name: "webp-256", summary: "fit inside 256x256, WebP q80 (alpha kept)", sets: [.jpeg, .png],
        kind: .resize(.fit(width: 256, height: 256)), quality: 80, format: .webp)

    /// The workload of sharp's published performance page.
    package static let sharpJPEG = BenchJob(
        name: "sharp-jpeg", summary: "720 px wide fit, Lanczos3, JPEG q80", sets: [.jpeg],
        kind: .resize(.fitWidth(720)), quality: 80)

    /// The catalog build of the demo catalog (thumbs, rating strips, app icons): a full
    /// `thumbkit build` per run, from an untouched copy of the prepared demo catalog
    /// (``BenchDemoCatalog``), with the built-in recipes. ThumbKit only: no peer builds a
    /// catalog, and there is no reference to score its outputs against. It needs no corpus.
    package static let icons = BenchJob(
        name: "icons", summary: "catalog build of the demo catalog (thumbs, rating strips, app icons)",
        sets: [], kind: .catalogBuild, quality: 85)

    /// Every job, in table order.
    package static let all: [BenchJob] = [bugThumb, fit256, webp256, sharpJPEG, icons]

    /// The jobs that can run in this build.
    package static var enabled: [BenchJob] { all.filter(\.isEnabled) }

    /// The job called `name`.
    package static func named(_ name: String) -> BenchJob? { all.first { $0.name == name } }
}
