/// Makes thumbnails from encoded bytes: header, shrink-on-load decode (once), then one resize
/// per scale factor, with the EXIF orientation applied to each small result.
public enum Thumbnailer {
    /// Decodes `data` once and makes every scale of `request`.
    ///
    /// - Parameter threads: threads for the rows of this one image (use 1 when a batch already
    ///   runs images in parallel).
    public static func make(
        from data: [UInt8], path: String, request: ThumbnailRequest, threads: Int = 1
    ) throws(DecodeError) -> ThumbnailSet {
        let header = try ImageDecoders.readHeader(data, path: path)
        try request.decode.limits.check(width: header.width, height: header.height, path: path)
        let orientation = request.decode.autoRotate ? header.orientation : .up
        let largest = request.scales.max() ?? 1
        let biggest = ImageProcessors.Resize(request.resize.scaled(by: largest))
        let minimumScale = biggest.minimumLoadScale(
            originalWidth: header.width, originalHeight: header.height,
            orientation: orientation, margin: request.shrinkOnLoadMargin)
        let decoded = try ImageDecoders.decode(data, path: path, options: request.decode, minimumScale: minimumScale)
        var images: [(scale: Int, image: PixelBuffer)] = []
        for scale in request.scales {
            let resize = ImageProcessors.Resize(request.resize.scaled(by: scale))
            let image = resize.process(
                decoded.buffer, originalWidth: header.width, originalHeight: header.height,
                loadScale: decoded.loadScale, orientation: orientation, threads: threads)
            images.append((scale, image))
        }
        return ThumbnailSet(
            header: decoded.header, images: images, warnings: decoded.warnings,
            scaleNumerator: decoded.scaleNumerator)
    }
}
