// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// The encoding option group: the output format and every encoder setting (`--format`,
/// `--quality`, `--lossless`, `--avif-speed`, `--subsampling`, `--progressive`, `--png-level`),
/// declared once with their ranges, with the rules between them.
///
/// `thumb` is the one command that encodes with settings from the command line; the catalog
/// commands encode with the settings of their recipes, which the recipe file declares.
enum EncodingOptions {
    /// `--format`: nil means "from the output name". Only the formats ThumbKit writes are
    /// listed and accepted (HEIC is read, not written).
    static let format = OptionKey<ImageFormat?>(
        spec: .value(
            "format", valueName: "format", help: "Output format (default: from the template's extension).",
            allowedValues: ImageFormat.allCases.filter(\.isWritable).map(\.rawValue))
    ) { arguments throws(UsageError) in try arguments.choice("format", as: ImageFormat.self) }
    /// `-q N`: nil means the format's own default.
    static let quality: OptionKey<Int?> = .integer(
        "quality", short: "q", in: 1...100, defaultHelp: "85 JPEG, 80 WebP, 50 AVIF",
        help: "JPEG, WebP or AVIF quality.")
    /// `--lossless` (WebP only).
    static let lossless: OptionKey<Bool> = .flag("lossless", help: "Write lossless WebP (icons, flat artwork).")
    /// `--avif-speed N` (AVIF only).
    static let avifSpeed: OptionKey<Int> = .integer(
        "avif-speed", in: 0...9, default: EncodeOptions.defaultAVIFSpeed,
        help: "AVIF encoder speed: 0 is the smallest file, 9 the fastest.")
    /// `--subsampling RATIO` (JPEG).
    static let subsampling: OptionKey<EncodeOptions.Subsampling> = .choice(
        "subsampling", valueName: "ratio", default: .yuv420, help: "JPEG chroma subsampling.")
    /// `--progressive` (JPEG).
    static let progressive: OptionKey<Bool> = .flag("progressive", help: "Write progressive JPEGs.")
    /// `--png-level N`.
    static let pngLevel: OptionKey<Int> = .integer(
        "png-level", in: 0...9, default: 6, help: "PNG compression level.")

    /// The options, in help order.
    static let all: [any OptionDeclaration] = [
        format, quality, lossless, avifSpeed, subsampling, progressive, pngLevel,
    ]

    /// The encoder settings for output in `format`, flattening onto `background`.
    static func encodeOptions(_ arguments: ParsedArguments, format: ImageFormat, background: RGBA) throws(UsageError)
        -> EncodeOptions
    {
        try check(arguments, format: format)
        return EncodeOptions(
            format: format, quality: try arguments[quality], subsampling: try arguments[subsampling],
            progressive: try arguments[progressive], pngCompression: .standard(level: try arguments[pngLevel]),
            background: background, lossless: try arguments[lossless], avifSpeed: try arguments[avifSpeed])
    }

    /// Usage errors of the format flags: a format ThumbKit only reads (HEIC), and any encoder
    /// option given for an output it does not apply to (``appliesTo``), as docs/thumbnails.md
    /// promises: silently ignored, it would leave the user believing it took effect.
    static func check(_ arguments: ParsedArguments, format: ImageFormat) throws(UsageError) {
        if !format.isWritable {
            throw UsageError.invalidValue(
                option: "--format", value: format.rawValue,
                reason: "ThumbKit reads \(format.rawValue) but does not write it")
        }
        let isLossless = try arguments[lossless]
        for (option, applies, what) in appliesTo(format: format, lossless: isLossless)
        where arguments.isPresent(option.spec.long) && !applies {
            let name = (option.spec.short.map { "-\($0)/" } ?? "") + "--" + option.spec.long
            throw UsageError.validationFailed("\(name) applies only to \(what)")
        }
    }

    /// Each encoder option, whether it applies to `format` output (`lossless`: `--lossless`
    /// given), and the outputs it applies to, for the message.
    static func appliesTo(format: ImageFormat, lossless: Bool) -> [(any OptionDeclaration, Bool, String)] {
        let jpeg = "JPEG output (-o '%s.jpg' or --format jpeg)"
        return [
            (Self.lossless, format == .webp, "WebP output (-o '%s.webp' or --format webp)"),
            (avifSpeed, format == .avif, "AVIF output (-o '%s.avif' or --format avif)"),
            (subsampling, format == .jpeg, jpeg),
            (progressive, format == .jpeg, jpeg),
            (pngLevel, format == .png, "PNG output (-o '%s.png' or --format png)"),
            (
                quality, [.jpeg, .avif].contains(format) || (format == .webp && !lossless),
                "lossy output (JPEG, AVIF, or WebP without --lossless)"
            ),
        ]
    }
}
