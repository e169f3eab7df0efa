// SPDX-License-Identifier: Apache-2.0
/// How an output image is encoded.
public struct EncodeOptions: Sendable, Hashable, Codable {
    /// JPEG chroma subsampling.
    public enum Subsampling: String, Sendable, Hashable, Codable, CaseIterable {
        /// Chroma at half resolution both ways (the JPEG default; smallest files).
        case yuv420 = "4:2:0"
        /// Full-resolution chroma (sharper colour edges).
        case yuv444 = "4:4:4"
    }

    /// Output container.
    public var format: ImageFormat
    /// Quality, 1...100: JPEG, lossy WebP and AVIF (`defaultQuality(for:)` when not given).
    public var quality: Int
    /// JPEG chroma subsampling.
    public var subsampling: Subsampling
    /// Write a progressive JPEG.
    public var progressive: Bool
    /// Build optimal Huffman tables (smaller JPEGs, slightly slower).
    public var optimizeHuffman: Bool
    /// PNG only: the filter and zlib settings (`.standard(level: 6)` unless given).
    public var pngCompression: PNGCompression {
        get { pngFast == true ? .fast : .standard(level: pngCompressionLevel) }
        set {
            pngCompressionLevel = newValue.level
            pngFast = newValue.isFast ? true : nil
        }
    }
    /// The zlib level of `pngCompression`, 0...9 (6 for `.fast`).
    public private(set) var pngCompressionLevel: Int
    /// Colour that transparent pixels are flattened onto for JPEG (which has no alpha).
    public var background: RGBA
    /// WebP only: lossless instead of lossy (for icons and flat artwork; `quality` is ignored).
    public var lossless: Bool
    /// AVIF only: the aom encoder speed, 0 (slowest, smallest) ... 9 (`defaultAVIFSpeed`).
    public var avifSpeed: Int
    /// `true` for `PNGCompression.fast`, else nil: the last stored property and optional, so the
    /// synthesised encoding writes it only for `.fast` and other options save as before.
    private var pngFast: Bool?

    public init(
        format: ImageFormat = .jpeg, quality: Int? = nil, subsampling: Subsampling = .yuv420,
        progressive: Bool = false, optimizeHuffman: Bool = true, pngCompression: PNGCompression = .default,
        background: RGBA = .white, lossless: Bool = false, avifSpeed: Int = EncodeOptions.defaultAVIFSpeed
    ) {
        let quality = quality ?? Self.defaultQuality(for: format)
        precondition((1...100).contains(quality), "Quality must be 1...100.")
        precondition((0...9).contains(avifSpeed), "AVIF speed must be 0...9.")
        self.lossless = lossless
        self.avifSpeed = avifSpeed
        precondition((0...9).contains(pngCompression.level), "PNG compression level must be 0...9.")
        self.format = format
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.optimizeHuffman = optimizeHuffman
        self.pngCompressionLevel = pngCompression.level
        self.pngFast = pngCompression.isFast ? true : nil
        self.background = background
    }

    /// Stable key of every option that changes the output bytes; version bumped on format change.
    /// JPEG: `jpeg/v1?q=85,ss=420,prog=0,opt=1,bg=#ffffffff`; PNG: `png/v2?level=6` (v2: PNGs
    /// carry an `sRGB` chunk), `png/v2?level=6,fast=1` for `PNGCompression.fast`.
    public var identifier: String {
        switch format {
        case .jpeg:
            let ss = subsampling == .yuv420 ? "420" : "444"
            return
                "jpeg/v1?q=\(quality),ss=\(ss),prog=\(progressive ? 1 : 0),opt=\(optimizeHuffman ? 1 : 0),bg=\(background.hex)"
        case .png:
            return "png/v2?level=\(pngCompression.level)" + (pngCompression.isFast ? ",fast=1" : "")
        case .webp:
            return lossless ? "webp/v1?lossless=1" : "webp/v1?q=\(quality)"
        case .heic, .avif:
            return "avif/v1?q=\(quality),speed=\(avifSpeed)"
        }
    }
}

/// Why an image could not be encoded or written.
public enum EncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The codec failed (reason from libpng / libjpeg).
    case codec(path: String, reason: String)
    /// Writing the file failed (disk full, permissions, missing folder).
    case write(path: String, reason: String)

    public var path: String {
        switch self {
        case .codec(let p, _), .write(let p, _): return p
        }
    }

    public var reason: String {
        switch self {
        case .codec(_, let r), .write(_, let r): return r
        }
    }

    /// `<path>: <reason>`.
    public var description: String { "\(path): \(reason)" }
}
