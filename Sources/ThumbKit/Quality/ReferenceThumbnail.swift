/// The quality reference a thumbnail is scored against: the source decoded at full resolution
/// (no shrink-on-load), turned upright, and resampled with the exact Lanczos3 filter over the
/// exact crop (no box pre-shrink), in the sRGB-encoded domain unless `linearLight` is set.
///
/// Benchmarks and tests compare every tool's output with this image (SSIM and PSNR), so it
/// must not share the shortcuts being measured: it never decodes reduced and never pre-shrinks.
public enum ReferenceThumbnail {
    /// The reference for `options` (its kernel is ignored: always Lanczos3).
    public static func make(
        from data: [UInt8], path: String, options: ResizeOptions, decode: DecodeOptions = DecodeOptions(),
        threads: Int = 1
    ) throws(DecodeError) -> PixelBuffer {
        let decoded = try ImageDecoders.decode(data, path: path, options: decode, minimumScale: 1)
        let orientation = decode.autoRotate ? decoded.header.orientation : .up
        let stored = ImageProcessors.Resize.storedOptions(options, orientation: orientation)
        let geometry = CropGeometry.plan(
            sourceWidth: decoded.header.width, sourceHeight: decoded.header.height, options: stored)
        let out = Resampler.resample(
            decoded.buffer, rect: geometry.sourceRect, width: geometry.outputWidth,
            height: geometry.outputHeight, kernel: .lanczos3, linearLight: options.linearLight,
            threads: threads, preShrink: false)
        return ImageProcessors.Resize(options).finishing(out, orientation: orientation)
    }
}
