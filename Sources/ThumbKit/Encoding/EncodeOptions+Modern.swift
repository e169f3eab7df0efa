extension EncodeOptions {
    /// The AVIF speed used unless one is given: aom `cpu-used` 8. Measured on this machine kind
    /// (docs/modern-formats.md): at 256 px speeds 6 → 9 cost about 2.3× → 1× the time for files
    /// within a few per cent of each other, so 8 keeps batches quick at nearly speed 6's size.
    public static let defaultAVIFSpeed = 8

    /// The quality used unless one is given: JPEG 85 (as before), WebP 80 (cwebp's, sharp's and
    /// vips's default is 75–80), AVIF 55 (libheif's default 50, sharp's 50; a little higher
    /// because thumbnails are small and detail matters).
    public static func defaultQuality(for format: ImageFormat) -> Int {
        switch format {
        case .jpeg, .png: return 85
        case .webp: return 80
        case .heic, .avif: return 55
        }
    }

    /// The keys of the synthesised encoding (the property names).
    private enum SavedKeys: String, CodingKey {
        case format, quality, subsampling, progressive, optimizeHuffman, pngCompressionLevel, background, lossless
        case avifSpeed
    }

    /// Decodes options saved before `lossless` and `avifSpeed` existed too (they get defaults).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SavedKeys.self)
        let format = try c.decode(ImageFormat.self, forKey: .format)
        self.init(
            format: format, quality: try c.decode(Int.self, forKey: .quality),
            subsampling: try c.decode(Subsampling.self, forKey: .subsampling),
            progressive: try c.decode(Bool.self, forKey: .progressive),
            optimizeHuffman: try c.decode(Bool.self, forKey: .optimizeHuffman),
            pngCompressionLevel: try c.decode(Int.self, forKey: .pngCompressionLevel),
            background: try c.decode(RGBA.self, forKey: .background),
            lossless: try c.decodeIfPresent(Bool.self, forKey: .lossless) ?? false,
            avifSpeed: try c.decodeIfPresent(Int.self, forKey: .avifSpeed) ?? Self.defaultAVIFSpeed)
    }
}
