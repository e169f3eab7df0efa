// SPDX-License-Identifier: Apache-2.0
/// The container formats ThumbKit reads and writes.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case png
    case jpeg
    /// WebP (read and written, through libwebp).
    case webp
    /// HEIC / HEIF with HEVC images (read only, through libheif).
    case heic
    /// AVIF (read and written, through libheif).
    case avif

    /// Recognises a format from the file's first bytes (its signature), never from its name:
    /// PNG and JPEG signatures, `RIFF....WEBP`, and an ISO-BMFF `ftyp` box (`ImageFormat+Sniff.swift`).
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .png
        }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        return sniffModern(bytes)
    }

    /// Every file extension (lower-case) and the format it names: the one table that input
    /// walking and output templates use, so a new format is one line here.
    public static let fileExtensions: [String: ImageFormat] = [
        "jpg": .jpeg, "jpeg": .jpeg, "jpe": .jpeg, "png": .png, "webp": .webp, "heic": .heic, "heif": .heic,
        "avif": .avif,
    ]

    /// The format a file name's extension asks for (`jpg`, `jpeg`, `png`, `webp`, `heic`, …, any case).
    public init?(fileExtension ext: String) {
        guard let format = Self.fileExtensions[ext.lowercased()] else { return nil }
        self = format
    }

    /// The usual file extension.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The media type, as shared-mime-info names it (what GIO reports as the content type,
    /// and desktop thumbnails record in `Thumb::Mimetype`): `image/heif` for HEIC, whose
    /// `image/heic` is an alias there.
    public var mimeType: String { self == .heic ? "image/heif" : "image/" + rawValue }

    /// The media types of every format ThumbKit reads, plus the alias `image/heic`: the list a
    /// desktop thumbnailer entry claims (`share/thumbnailers/thumbkit.thumbnailer`).
    public static var readableMimeTypes: [String] {
        allCases.map(\.mimeType) + ["image/heic"]
    }
}

/// What a file's header says, read without decoding any pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The container format.
    public var format: ImageFormat
    /// Width as stored in the file (before EXIF orientation).
    public var width: Int
    /// Height as stored in the file (before EXIF orientation).
    public var height: Int
    /// EXIF orientation (JPEG APP1); `.up` when absent or unreadable.
    public var orientation: ExifOrientation
    /// True when the image can carry transparency (alpha channel or PNG tRNS).
    public var hasAlpha: Bool
    /// Progressive JPEG or interlaced PNG.
    public var isProgressive: Bool
    /// Colour components in the file (1 gray, 2 gray+alpha, 3 colour, 4 colour+alpha or CMYK).
    public var components: Int

    public init(
        format: ImageFormat, width: Int, height: Int, orientation: ExifOrientation = .up,
        hasAlpha: Bool = false, isProgressive: Bool = false, components: Int = 3
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.isProgressive = isProgressive
        self.components = components
    }

    /// Width and height as displayed, after the orientation is applied.
    public var orientedSize: (width: Int, height: Int) {
        orientation.swapsAxes ? (height, width) : (width, height)
    }
}

/// A decoded image, as stored (the orientation is *not* yet applied).
public struct DecodedImage: Sendable {
    /// The pixels, possibly reduced by JPEG shrink-on-load.
    public var buffer: PixelBuffer
    /// The file's header.
    public var header: ImageHeader
    /// The DCT scale used, as a numerator over 8 (8 means full size; always 8 for PNG).
    public var scaleNumerator: Int
    /// Codec warnings that did not stop the decode, in order (`failOnWarning` makes them fatal).
    public var warnings: [String]
    /// The ICC profile the pixels are in: nil for sRGB (every image, unless
    /// `ColorOptions.keepProfile` kept its RGB profile instead of converting).
    public var colorProfile: ColorProfile?
    /// Colour-management warnings (a profile that could not be used, so the image was taken as
    /// sRGB). Never fatal: they cost colour accuracy, not image data.
    public var colorWarnings: [String]

    public init(
        buffer: PixelBuffer, header: ImageHeader, scaleNumerator: Int = 8, warnings: [String] = [],
        colorProfile: ColorProfile? = nil, colorWarnings: [String] = []
    ) {
        self.buffer = buffer
        self.header = header
        self.scaleNumerator = scaleNumerator
        self.warnings = warnings
        self.colorProfile = colorProfile
        self.colorWarnings = colorWarnings
    }

    /// Decoded width ÷ original width of a HEIF image decoded from its `thmb` thumbnail instead
    /// of the primary image; nil otherwise.
    package var thumbnailScale: Double?

    /// Which decoder made the pixels; nil for an image not made by ``ImageDecoders``.
    package var decoder: DecodePath?

    /// Decoded size ÷ original size: `scaleNumerator`/8, or the thumbnail's scale.
    public var loadScale: Double { thumbnailScale ?? Double(scaleNumerator) / 8 }
}
