// SPDX-License-Identifier: Apache-2.0
extension EncodeOptions {
    /// The AVIF speed used unless one is given: aom `cpu-used` 5, the speed libvips and sharp
    /// use by default (their `effort` 4). Measured on the 12 shared photos at 256 px fit
    /// against `vipsthumbnail -o x.avif[Q=50]` (docs/modern-formats.md): at quality 50, speed 5
    /// gives 49.5 kB at mean SSIM 0.9328 against vips's 50.0 kB at 0.9331, while speed 8 needs
    /// about 23 % more bytes for the same SSIM. Speed 5 costs about 0.19 s of CPU per 256 px
    /// image (3.8× a speed-8 batch); `--avif-speed 8` is the choice for throughput.
    public static let defaultAVIFSpeed = 5

    /// The quality used unless one is given: JPEG 85 (as before), WebP 80 (cwebp's, sharp's and
    /// vips's default is 75–80), AVIF 50 (libheif's, sharp's and vips's default).
    public static func defaultQuality(for format: ImageFormat) -> Int {
        switch format {
        case .jpeg, .png: return 85
        case .webp: return 80
        case .heic, .avif: return 50
        }
    }

    /// The keys of the synthesised encoding (the property names).
    private enum SavedKeys: String, CodingKey {
        case format, quality, subsampling, progressive, optimizeHuffman, pngCompressionLevel, background, lossless
        case avifSpeed, pngFast
    }

    /// Decodes options saved before `lossless`, `avifSpeed` and `pngFast` existed too (they get
    /// defaults).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SavedKeys.self)
        let format = try c.decode(ImageFormat.self, forKey: .format)
        self.init(
            format: format, quality: try c.decode(Int.self, forKey: .quality),
            subsampling: try c.decode(Subsampling.self, forKey: .subsampling),
            progressive: try c.decode(Bool.self, forKey: .progressive),
            optimizeHuffman: try c.decode(Bool.self, forKey: .optimizeHuffman),
            pngCompression: try c.decodeIfPresent(Bool.self, forKey: .pngFast) == true
                ? .fast : .standard(level: try c.decode(Int.self, forKey: .pngCompressionLevel)),
            background: try c.decode(RGBA.self, forKey: .background),
            lossless: try c.decodeIfPresent(Bool.self, forKey: .lossless) ?? false,
            avifSpeed: try c.decodeIfPresent(Int.self, forKey: .avifSpeed) ?? Self.defaultAVIFSpeed)
    }
}
