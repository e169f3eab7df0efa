// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// The options of `thumbkit thumb`, each with its type, range and default (the limits and
/// encoding groups are declared in `LimitOptions` and `EncodingOptions`).
extension ThumbCommand {
    /// `-s WxH`: kept as text, since `Wx` and `xH` depend on `--fit` (see ``box(_:mode:)``).
    static let size: OptionKey<String> = .text(
        "size", short: "s", valueName: "WxH", default: "128x128",
        help: "Target box in pixels (N means NxN; Wx or xH: fit to that width or height).")
    static let fit: OptionKey<ResizeMode> = .choice(
        "fit", default: .fill, help: "How the source maps onto the box (fit for Wx and xH).")
    /// `--scales 1,2,3`: every factor from 1 to 10.
    static let scales = OptionKey<[Int]>(
        spec: .value("scales", valueName: "list", help: "Scale factors to make, such as 1,2,3.", default: "1")
            .withRange("each 1 to 10")
    ) { arguments throws(UsageError) in
        let scales = try arguments.list("scales", as: Int.self)
        guard !scales.isEmpty, scales.allSatisfy({ (1...10).contains($0) }) else {
            throw UsageError.invalidValue(
                option: "--scales", value: arguments.value("scales")!, reason: "scale factors must be 1 to 10")
        }
        return scales
    }
    static let output: OptionKey<String> = .text(
        "output", short: "o", valueName: "template", default: "tn_%s.jpg", help: "Output name template.")
    static let background: OptionKey<RGBA> = .parsed(
        .value(
            "background", valueName: "color",
            help: "Pad colour and JPEG flattening colour (#rrggbb, #rrggbbaa or a CSS colour name).",
            default: "white")
    ) { text throws(UsageError) in
        guard let color = CSSColors.parse(text) else {
            throw UsageError.invalidValue(
                option: "--background", value: text, reason: "expected #rrggbb, #rrggbbaa or a CSS colour name")
        }
        return color
    }
    /// `--gravity`: which part a fill keeps (`Gravity(parsing:)`; refused with another `--fit`).
    static let gravity: OptionKey<Gravity> = .parsed(
        .value(
            "gravity", valueName: "where",
            help: "Which part --fit fill keeps: centre, north, south, east, west, north-east, north-west, "
                + "south-east, south-west, smart (where the detail is) or focus:X,Y (X and Y 0 to 1 of the "
                + "upright picture). A compass name or centre may end in a shift in output pixels, +X+Y "
                + "(right, down; such as north+0+10).",
            default: "centre")
    ) { text throws(UsageError) in
        guard let gravity = Gravity(parsing: text) else {
            throw UsageError.invalidValue(
                option: "--gravity", value: text,
                reason: "expected centre, a compass direction (north, north-east, …), smart or focus:X,Y with "
                    + "X and Y from 0 to 1 (such as focus:0.5,0.25), or a compass name with a shift such as "
                    + "north+0+10")
        }
        return gravity
    }
    static let kernel: OptionKey<ResampleKernel> = .choice(
        "kernel", valueName: "name", default: .lanczos3, help: "Resampling filter.")
    static let linear: OptionKey<Bool> = .flag("linear", help: "Resample in linear light.")
    static let intent: OptionKey<RenderingIntent> = .choice(
        "intent", valueName: "name", default: .relative, help: "Rendering intent of the conversion to sRGB.")
    static let bpc: OptionKey<Bool> = .flag("bpc", help: "Use black-point compensation in the conversion to sRGB.")
    static let keepProfile: OptionKey<Bool> = .flag(
        "keep-profile", help: "Embed an RGB source's ICC profile instead of converting to sRGB.")
    static let noRotate: OptionKey<Bool> = .flag("no-rotate", help: "Ignore the EXIF orientation.")
    static let noUpscale: OptionKey<Bool> = .flag("no-upscale", help: "Never make an image larger than its source.")
    static let jobs = CommonOptions.jobs("Images processed in parallel.")
    static let recursive: OptionKey<Bool> = .flag(
        "recursive", short: "r", help: "Walk sub-folders of folder arguments.")
    static let shard: OptionKey<BatchShard?> = .parsedIfPresent(
        .value(
            "shard", valueName: "K/N",
            help: "Process only share K (0-based) of N of the inputs, split by a stable hash of their outputs."),
        parseShard)
    static let stopOnError: OptionKey<Bool> = .flag("stop-on-error", help: "Start no new file after the first failure.")
    static let verbose: OptionKey<Bool> = .flag(
        "verbose", help: "Also show colour-profile warnings (such as libpng's iCCP ones), which are never counted.")
    static let failOn: OptionKey<FailOn> = .choice(
        "fail-on", valueName: "level", default: .error, help: "Treat codec warnings as failures with 'warning'.")
    static let shrinkMargin: OptionKey<Double> = .number(
        "shrink-margin", in: 1...8, default: 2,
        help: "JPEG shrink-on-load keeps this many decoded pixels per output pixel.")
    // Hidden (see OptionSpec.isHidden): a test seam of the real binary, not for users. The
    // outputs' writes fail with ENOSPC once this many bytes have been written, as on a full disk
    // (SimulatedDiskFull); FaultFlagsTests and scripts/fault-test use it when they cannot mount
    // a small tmpfs.
    static let diskFullAfter: OptionKey<Int?> = .integer(
        "_disk-full-after", valueName: "bytes", in: 0...Int.max,
        help: "Test seam: simulate a disk that is full after BYTES bytes.")

    /// Every option, in help order.
    static let options: [any OptionDeclaration] =
        [size, fit, gravity, scales, output]
        + EncodingOptions.all
        + [background, kernel, linear, intent, bpc, keepProfile, noRotate, noUpscale, jobs, recursive, shard]
        + LimitOptions.all
        + [stopOnError, failOn, shrinkMargin, verbose, CommonOptions.json, diskFullAfter]

    /// The `--shard` value: `K/N` with 0 ≤ K < N (`BatchShard`).
    static func parseShard(_ text: String) throws(UsageError) -> BatchShard {
        guard let shard = BatchShard(parsing: text) else {
            throw UsageError.validationFailed(
                "invalid --shard '\(text)': expected K/N with 0 <= K < N, such as 0/4 (K counts from 0)")
        }
        return shard
    }

    /// sharp's `failOn`, reduced to the two levels libjpeg and libpng distinguish.
    enum FailOn: String, CaseIterable, Sendable {
        case error
        case warning
    }
}
