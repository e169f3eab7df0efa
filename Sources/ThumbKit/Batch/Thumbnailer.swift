// SPDX-License-Identifier: Apache-2.0
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
        try make(from: ImageSource(data, path: path), request: request, threads: threads, deadline: deadline)
    }

    /// Makes every scale of `request` from a source whose header is already read.
    public static func make(
        from source: ImageSource, request: ThumbnailRequest, threads: Int = 1, deadline: Deadline? = nil
    ) throws(DecodeError) -> ThumbnailSet {
        let variants = try request.variants(path: source.path)
        let rendered = try render(
            source, variants: variants, decode: request.decode,
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
        /// Which decoder made the pixels.
        package var decoder: DecodePath? = nil
    }

    /// Decodes `data` once, at the smallest JPEG DCT scale that still serves the most demanding
    /// variant with `shrinkOnLoadMargin` times its resolution, and resizes it for each variant
    /// (for example a list thumbnail at @1x, @2x, @3x and a detail image, from one decode).
    /// Gives up with `.overLimit` once `deadline` (nil: `decode.limits.maxSeconds` from now) has
    /// passed: in the decoder, between chunks of resampled rows, or between variants. Every
    /// variant's output is checked against `decode.limits` first (`.overLimit` when too large).
    public static func render(
        _ data: [UInt8], path: String, variants: [ResizeOptions], decode: DecodeOptions = DecodeOptions(),
        shrinkOnLoadMargin: Double = 2, threads: Int = 1, deadline: Deadline? = nil
    ) throws(DecodeError) -> Rendered {
        let deadline = deadline ?? decode.limits.deadline()
        return try render(
            ImageSource(data, path: path), variants: variants, decode: decode,
            shrinkOnLoadMargin: shrinkOnLoadMargin, threads: threads, deadline: deadline)
    }

    /// `render(_:path:variants:decode:shrinkOnLoadMargin:threads:deadline:)` for a source
    /// whose header is already read.
    public static func render(
        _ source: ImageSource, variants: [ResizeOptions], decode: DecodeOptions = DecodeOptions(),
        shrinkOnLoadMargin: Double = 2, threads: Int = 1, deadline: Deadline? = nil
    ) throws(DecodeError) -> Rendered {
        try render(
            source, variants: variants, decode: decode, shrinkOnLoadMargin: shrinkOnLoadMargin, threads: threads,
            deadline: deadline, spareSlot: nil)
    }

    /// `render(_:variants:decode:shrinkOnLoadMargin:threads:deadline:)`, where a PNG too large
    /// for the fast path's everyday budget takes it with the heavy slot's
    /// (`PNGFastRows.Budget.heavySlot`) when `spareSlot` is free at that moment, holding it
    /// while it decodes; it never waits for the slot, and streams through libpng when it is
    /// taken. The caller must not hold `spareSlot` itself.
    package static func render(
        _ source: ImageSource, variants: [ResizeOptions], decode: DecodeOptions, shrinkOnLoadMargin: Double,
        threads: Int, deadline: Deadline?, spareSlot: HeavyDecodeSlot?
    ) throws(DecodeError) -> Rendered {
        precondition(!variants.isEmpty, "Render at least one variant.")
        let deadline = deadline ?? decode.limits.deadline()
        let (header, path) = (source.header, source.path)
        try decode.limits.check(width: header.width, height: header.height, path: path)
        let orientation = decode.autoRotate ? header.orientation : .up
        try checkOutputs(
            header: header, variants: variants, orientation: orientation, limits: decode.limits, path: path)
        let minimumScale = minimumLoadScale(
            header: header, variants: variants, orientation: orientation, margin: shrinkOnLoadMargin)
        // Stream decoded rows into the resamplers, so the decoded image is never whole in
        // memory: always for non-interlaced PNGs (decoding dominates anyway), and for JPEGs when
        // this image has one thread (a batch); with more, decode whole and resample in parallel.
        // WebP, HEIC and AVIF decode whole (libwebp / libheif hand out the finished image).
        // A smart crop looks at the whole decoded image before it can plan: never streamed.
        let streams =
            (header.format == .png ? !header.isProgressive : header.format == .jpeg && threads == 1)
            && !variants.contains { ImageProcessors.Resize($0).needsPixels }
        if streams {
            let numerator = header.format == .png ? 8 : ImageDecoders.scaleNumerator(forMinimumScale: minimumScale)
            return try renderStreaming(
                source, variants: variants, decode: decode, orientation: orientation,
                scaleNumerator: numerator, threads: threads, deadline: deadline, spareSlot: spareSlot)
        }
        let decoded = try ImageDecoders.decode(
            source, options: decode, minimumScale: minimumScale, deadline: deadline, threads: threads)
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
            scaleNumerator: decoded.scaleNumerator, colorProfile: decoded.colorProfile, decoder: decoded.decoder)
    }

    /// `render` from decoded rows: they go from libpng or libjpeg straight into every variant's
    /// resampler (`Resampler.RowSink`), so memory stays a few rows plus the outputs instead of
    /// the whole decoded image; the output is bit-identical to resampling the whole buffer.
    private static func renderStreaming(
        _ source: ImageSource, variants: [ResizeOptions], decode: DecodeOptions,
        orientation: ExifOrientation, scaleNumerator: Int, threads: Int, deadline: Deadline,
        spareSlot: HeavyDecodeSlot?
    ) throws(DecodeError) -> Rendered {
        let header = source.header
        try ImageDecoders.checkFileSize(source.bytes, path: source.path, limits: decode.limits)
        let sinks = variants.map {
            Resampler.RowSink(
                plan: ImageProcessors.Resize($0).resamplePlan(
                    sourceWidth: ImageDecoders.scaledLength(header.width, numerator: scaleNumerator),
                    sourceHeight: ImageDecoders.scaledLength(header.height, numerator: scaleNumerator),
                    originalWidth: header.width, originalHeight: header.height,
                    loadScale: Double(scaleNumerator) / 8, orientation: orientation, threads: threads,
                    deadline: deadline))
        }
        let feed = { (row: UnsafeBufferPointer<UInt8>) in
            for sink in sinks { sink.consume(row) }
        }
        let decoded: ImageDecoders.StreamedDecode
        switch header.format {
        case .png:
            // The slot, when this file wants it and it is free now (never waited for).
            let held = spareSlot.flatMap {
                PNGFastRows.wantsHeavySlot(source, limits: decode.limits) && $0.tryClaim() ? $0 : nil
            }
            defer { held?.release() }
            decoded = try ImageDecoders.PNG.decodeRows(
                source, options: decode, deadline: deadline, budget: held != nil ? .heavySlot : .everyday,
                consume: feed)
        case .jpeg, .webp, .heic, .avif:  // only JPEG gets here besides PNG (see `render`)
            decoded = try ImageDecoders.JPEG.decodeRows(
                source, options: decode, scaleNumerator: scaleNumerator, deadline: deadline, consume: feed)
        }
        let images = zip(variants, sinks).map {
            ImageProcessors.Resize($0).finish($1.finish(), orientation: orientation)
        }
        return Rendered(
            header: header, images: images, warnings: decoded.warnings + decoded.color.warnings,
            scaleNumerator: scaleNumerator, colorProfile: decoded.color.profile, decoder: decoded.decoder)
    }

    /// The smallest decoded ÷ original ratio that serves every variant with `margin` times its
    /// resolution (JPEG shrink-on-load picks its DCT scale from it).
    static func minimumLoadScale(
        header: ImageHeader, variants: [ResizeOptions], orientation: ExifOrientation, margin: Double
    ) -> Double {
        variants.map {
            ImageProcessors.Resize($0).minimumLoadScale(
                originalWidth: header.width, originalHeight: header.height, orientation: orientation, margin: margin)
        }.max()!
    }

    /// Bytes a decoder holds for one file beyond rows and outputs: libjpeg's whole-image
    /// coefficient buffer for a progressive JPEG (see `coefficientBufferBytes`), the whole image
    /// for an interlaced PNG, a WebP, HEIC or AVIF (decoded whole), 0 otherwise (rows are
    /// streamed). `ThumbnailPipeline.isHeavy` compares it with `BatchScheduler.heavyBytes`.
    package static func decodeMemoryEstimate(
        _ source: ImageSource, variants: [ResizeOptions], decode: DecodeOptions, shrinkOnLoadMargin: Double = 2
    ) -> Int {
        let header = source.header
        let whole = variants.contains { ImageProcessors.Resize($0).needsPixels }  // not streamed
        switch header.format {
        case .png:
            guard header.isProgressive || whole else { return 0 }
            let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
            return overflow || pixels > Int.max / 4 ? .max : pixels * 4
        case .webp, .heic, .avif:
            // Decoded whole.
            let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
            return overflow || pixels > Int.max / 4 ? .max : pixels * 4
        case .jpeg:
            guard header.isProgressive || whole, !variants.isEmpty else { return 0 }
            let orientation = decode.autoRotate ? header.orientation : .up
            let scale = minimumLoadScale(
                header: header, variants: variants, orientation: orientation, margin: shrinkOnLoadMargin)
            let numerator = ImageDecoders.scaleNumerator(forMinimumScale: scale)
            let coefficients =
                header.isProgressive ? ImageDecoders.JPEG.coefficientBufferBytes(source, scaleNumerator: numerator) : 0
            guard whole else { return coefficients }
            let (pixels, overflow) = ImageDecoders.scaledLength(header.width, numerator: numerator)
                .multipliedReportingOverflow(by: ImageDecoders.scaledLength(header.height, numerator: numerator))
            guard !overflow, pixels <= (Int.max - coefficients) / 4 else { return .max }
            return coefficients + pixels * 4
        }
    }
}
