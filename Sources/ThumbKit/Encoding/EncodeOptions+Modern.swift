extension EncodeOptions {
    /// The AVIF speed used unless one is given: aom `cpu-used` 8. Measured here on the 12 shared
    /// photos at 256 px fit, quality 55 (docs/modern-formats.md): speeds 6, 7 and 8 give files
    /// within 3 % of each other (61.1, 59.3, 60.9 kB) and 9 gives 24 % larger ones (75.7 kB);
    /// speed 5 costs about 0.25 s more per image. 8 is the fastest before the size jump.
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
