import ThumbKit

extension ThumbCommand {
    /// Usage errors of the format flags: a format ThumbKit only reads (HEIC), `--lossless`
    /// without WebP output, `--avif-speed` without AVIF output.
    static func checkModernFormatFlags(_ arguments: ParsedArguments, format: ImageFormat) throws(UsageError) {
        if !format.isWritable {
            throw UsageError.invalidValue(
                option: "--format", value: format.rawValue,
                reason: "ThumbKit reads \(format.rawValue) but does not write it")
        }
        if arguments.flag("lossless"), format != .webp {
            throw UsageError.validationFailed("--lossless applies only to WebP output (-o '%s.webp' or --format webp)")
        }
        if arguments.isPresent("avif-speed"), format != .avif {
            throw UsageError.validationFailed(
                "--avif-speed applies only to AVIF output (-o '%s.avif' or --format avif)")
        }
    }
}
