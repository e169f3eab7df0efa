// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitQuality

/// `thumbkit compare A B [--json]`: SSIM and PSNR of image B against image A (the reference),
/// as the benchmark scores outputs: mean SSIM over R, G and B with a 7×7 window, PSNR over
/// R, G and B, each image turned upright by its EXIF orientation and composited over white.
enum CompareCommand: Command {
    static let spec = CommandSpec(
        name: "compare", abstract: "Print the SSIM and PSNR of one image against another.",
        discussion: """
            Both images must have the same size (after their EXIF orientation is applied). SSIM is \
            Wang et al.'s, averaged over R, G and B (7x7 uniform window, K1 0.01, K2 0.03, data \
            range 255); PSNR is over R, G and B. Pixels with alpha are composited over white first. \
            Identical images have an infinite PSNR, printed as 'inf' (null in JSON).

            Examples:
              thumbkit compare reference.png thumb.jpg
              thumbkit compare --json a.png b.png
            """,
        positionals: [
            .required("reference", help: "The reference image (A)."),
            .required("image", help: "The image to score against it (B)."),
        ],
        options: [CommonOptions.json])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let first = arguments.argument("reference")!
        let second = arguments.argument("image")!
        let a = try load(first)
        let b = try load(second)
        let result: ImageComparison.Result
        do {
            result = try ImageComparison.compare(a, b)
        } catch let error as ComparisonError {
            throw Failure(paths: "\(first) and \(second)", reason: error.description)
        }
        if try arguments[CommonOptions.json] {
            try context.writeJSON(result)
        } else {
            let psnr = result.psnr.isFinite ? String(format: "%.2f dB", result.psnr) : "inf"
            context.print(String(format: "SSIM %.6f", result.ssim) + "  PSNR \(psnr)")
        }
        return .success
    }

    /// Decodes a file in full and turns it upright.
    static func load(_ path: String) throws(DecodeError) -> PixelBuffer {
        let decoded = try ImageDecoders.decodeFile(atPath: path)
        return decoded.buffer.applying(decoded.header.orientation)
    }

    /// Two images that cannot be compared: `<a> and <b>: <reason>`.
    struct Failure: Error, CustomStringConvertible {
        let paths: String
        let reason: String
        var description: String { "\(paths): \(reason)" }
    }
}
