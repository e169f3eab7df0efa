// SPDX-License-Identifier: Apache-2.0
import ThumbKit
/// The quality reference a thumbnail is scored against: the source decoded at full resolution
/// (no shrink-on-load), turned upright, and resampled by `ReferenceResampler` (Double-precision
/// Lanczos3 over the exact crop, no box pre-shrink), in the sRGB-encoded domain unless
/// `options.linearLight` is set.
///
/// Benchmarks and tests compare every tool's output with this image (SSIM and PSNR), so it
/// shares none of the shortcuts being measured: it never decodes reduced, never pre-shrinks, and
/// uses its own filter code rather than the production resampler.
public enum ReferenceThumbnail {
    /// The reference for `options` (its kernel is ignored: always Lanczos3).
    public static func make(
        from data: [UInt8], path: String, options: ResizeOptions, decode: DecodeOptions = DecodeOptions()
    ) throws(DecodeError) -> PixelBuffer {
        let decoded = try ImageDecoders.decode(data, path: path, options: decode, minimumScale: 1)
        let upright = decoded.buffer.applying(decode.autoRotate ? decoded.header.orientation : .up)
        var resize = options
        if options.mode == .pad {
            resize = ResizeOptions(
                width: options.width, height: options.height, mode: .fit, kernel: options.kernel,
                upscale: options.upscale, linearLight: options.linearLight, background: options.background)
        }
        let out = ReferenceResampler.render(upright, options: resize, linearLight: options.linearLight)
        return ImageProcessors.Resize(options).finish(out, orientation: .up)
    }
}
