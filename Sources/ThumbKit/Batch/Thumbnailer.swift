/// Makes thumbnails from encoded bytes: header, shrink-on-load decode (once), then one resize
/// per variant, with the EXIF orientation applied to each small result.
public enum Thumbnailer {
    /// Decodes `data` once and makes every scale of `request`.
    ///
    /// - Parameters:
    ///   - threads: threads for the rows of this one image (use 1 when a batch already runs
    ///     images in parallel).
    ///   - deadline: when to give up; nil starts `request.decode.limits.maxSeconds` now.
    public static func make(
        from data: [UInt8], path: String, request: ThumbnailRequest, threads: Int = 1, deadline: Deadline? = nil
    ) throws(DecodeError) -> ThumbnailSet {
        let variants = request.scales.map { request.resize.scaled(by: $0) }
        let rendered = try render(
            data, path: path, variants: variants, decode: request.decode,
            shrinkOnLoadMargin: request.shrinkOnLoadMargin, threads: threads, deadline: deadline)
        return ThumbnailSet(
            header: rendered.header, images: Array(zip(request.scales, rendered.images)),
            warnings: rendered.warnings, scaleNumerator: rendered.scaleNumerator,
            colorProfile: rendered.colorProfile)
    }

    /// The result of `render`: one image per variant, in order.
    public struct Rendered: Sendable {
        public var header: ImageHeader
        public var images: [PixelBuffer]
        /// Codec warnings, then colour warnings.
        public var warnings: [String]
        public var scaleNumerator: Int
        /// The profile the images are in (nil: sRGB); encoders embed it.
        public var colorProfile: ColorProfile? = nil
    }

    /// Decodes `data` once, at the smallest JPEG DCT scale that still serves the most demanding
    /// variant with `shrinkOnLoadMargin` times its resolution, and resizes it for each variant
    /// (for example a list thumbnail at @1x, @2x, @3x and a detail image, from one decode).
    /// Gives up with `.overLimit` once `deadline` (nil: `decode.limits.maxSeconds` from now) has
    /// passed: in the decoder, between chunks of resampled rows, or between variants.
    public static func render(
        _ data: [UInt8], path: String, variants: [ResizeOptions], decode: DecodeOptions = DecodeOptions(),
        shrinkOnLoadMargin: Double = 2, threads: Int = 1, deadline: Deadline? = nil
    ) throws(DecodeError) -> Rendered {
        precondition(!variants.isEmpty, "Render at least one variant.")
        let deadline = deadline ?? decode.limits.deadline()
        let header = try ImageDecoders.readHeader(data, path: path)
        try decode.limits.check(width: header.width, height: header.height, path: path)
        let orientation = decode.autoRotate ? header.orientation : .up
        let minimumScale = variants.map {
            ImageProcessors.Resize($0).minimumLoadScale(
                originalWidth: header.width, originalHeight: header.height,
                orientation: orientation, margin: shrinkOnLoadMargin)
        }.max()!
        let decoded = try ImageDecoders.decode(
            data, path: path, options: decode, minimumScale: minimumScale, deadline: deadline)
        var images: [PixelBuffer] = []
        for variant in variants {
            images.append(
                ImageProcessors.Resize(variant).process(
                    decoded.buffer, originalWidth: header.width, originalHeight: header.height,
                    loadScale: decoded.loadScale, orientation: orientation, threads: threads, deadline: deadline))
            // A resize cut short by the deadline is blank: this check (the deadline stays
            // passed) makes sure it is never used.
            try deadline.check(path: path)
        }
        return Rendered(
            header: decoded.header, images: images, warnings: decoded.warnings + decoded.colorWarnings,
            scaleNumerator: decoded.scaleNumerator, colorProfile: decoded.colorProfile)
    }
}
