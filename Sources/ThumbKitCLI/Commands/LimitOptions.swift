// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// The limits option group: one declaration of `--max-pixels`, `--max-dimension`,
/// `--max-file-bytes` and `--timeout`, shared by every command that decodes pictures (`thumb`,
/// `build`, `worker`, `watch`, the catalog commands that rebuild), so they refuse the same files
/// with the same words.
enum LimitOptions {
    /// `--max-pixels N`.
    static let maxPixels: OptionKey<Int> = .integer(
        "max-pixels", in: 1...Int.max, default: ImageLimits.defaultMaxPixels, help: "Refuse images with more pixels.")
    /// `--max-dimension N`.
    static let maxDimension: OptionKey<Int> = .integer(
        "max-dimension", in: 1...Int.max, default: ImageLimits.defaultMaxDimension,
        help: "Refuse images wider or taller.")
    /// `--max-file-bytes N`.
    static let maxFileBytes: OptionKey<Int> = .integer(
        "max-file-bytes", in: 1...Int.max, default: ImageLimits.defaultMaxFileBytes,
        help: "Refuse larger input files.")
    /// `--timeout SECONDS`.
    static let timeout: OptionKey<Double> = .number(
        "timeout", valueName: "seconds", in: 0...86_400, default: ImageLimits.defaultMaxSeconds,
        help: "Give up on an image after this long (0: no limit).")

    /// The options, in help order, with the engine's defaults.
    static let all: [any OptionDeclaration] = [maxPixels, maxDimension, maxFileBytes, timeout]

    /// The limits the command line asks for.
    static func limits(_ arguments: ParsedArguments) throws(UsageError) -> ImageLimits {
        ImageLimits(
            maxPixels: try arguments[maxPixels], maxDimension: try arguments[maxDimension],
            maxFileBytes: try arguments[maxFileBytes], maxSeconds: try arguments[timeout])
    }
}
