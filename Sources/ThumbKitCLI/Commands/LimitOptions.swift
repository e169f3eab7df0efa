import ThumbKit

/// The limits option group: one declaration of `--max-pixels`, `--max-dimension`,
/// `--max-file-bytes` and `--timeout`, shared by every command that decodes pictures (`thumb`,
/// `build`, `worker`, `watch`), so they refuse the same files with the same words.
enum LimitOptions {
    /// The options, in help order, with the engine's defaults.
    static let all: [OptionSpec] = [
        .value(
            "max-pixels", valueName: "n", help: "Refuse images with more pixels.",
            default: String(ImageLimits.defaultMaxPixels)),
        .value(
            "max-dimension", valueName: "n", help: "Refuse images wider or taller.",
            default: String(ImageLimits.defaultMaxDimension)),
        .value(
            "max-file-bytes", valueName: "n", help: "Refuse larger input files.",
            default: String(ImageLimits.defaultMaxFileBytes)),
        .value(
            "timeout", valueName: "seconds", help: "Give up on an image after this long (0: no limit).",
            default: String(Int(ImageLimits.defaultMaxSeconds))),
    ]

    /// The limits the command line asks for (a usage error for a value out of range).
    static func limits(_ arguments: ParsedArguments) throws(UsageError) -> ImageLimits {
        ImageLimits(
            maxPixels: try arguments.int("max-pixels", in: 1...Int.max)!,
            maxDimension: try arguments.int("max-dimension", in: 1...Int.max)!,
            maxFileBytes: try arguments.int("max-file-bytes", in: 1...Int.max)!,
            maxSeconds: try arguments.double("timeout", in: 0...86_400)!)
    }
}
