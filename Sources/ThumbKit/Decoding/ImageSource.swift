// SPDX-License-Identifier: Apache-2.0
/// Encoded image bytes together with what their header says, read once and passed down.
///
/// The thumbnail path reads a file's header once: the batch's memory estimate, the
/// shrink-on-load choice, the limits and the PNG and JPEG decoders all take this value instead
/// of parsing the bytes again. A progressive JPEG's markers are parsed here too, once: its frame
/// header with the header, its scan layout on first use by a fast path (`JPEGMarkers`); the
/// coefficient-memory estimate and check and the progressive fast paths all read them from
/// here. WebP, HEIC and AVIF: the header read keeps what the decoder needs (size, animation, ICC
/// profile, nclx colour), and the decoder takes it from here; only libwebp's and libheif's own
/// decode calls parse the container again, as their APIs take the file, not a parsed header.
///
/// ```swift
/// let source = try ImageSource(bytes, path: "cat.jpg")
/// print(source.header.width, source.header.height)
/// let image = try ImageDecoders.decode(source, minimumScale: 0.25)
/// ```
public struct ImageSource: Sendable {
    /// The encoded file, unchanged.
    public let bytes: [UInt8]
    /// The path used in messages.
    public let path: String
    /// Format, size, orientation, alpha and interlacing, from the header alone.
    public let header: ImageHeader
    /// A JPEG's facts the decoder needs (CMYK, Adobe marker, colour space, a progressive file's
    /// markers); nil for other formats.
    let jpeg: ImageDecoders.JPEG.Header?
    /// A WebP's header facts (ICC profile, animation); nil for other formats.
    let webp: ImageDecoders.WebP.Parsed?
    /// A HEIC's or AVIF's header facts (ICC profile, nclx colour, Exif); nil for other formats.
    let heif: ImageDecoders.HEIF.Parsed?

    /// Detects the format from the bytes and reads the header: no pixels, no limits checked.
    /// Throws `.empty`, `.notAnImage`, `.unsupported` or `.corrupt` (or `.overLimit` when
    /// libjpeg itself refuses the size, above 65500 px a side).
    public init(_ bytes: [UInt8], path: String) throws(DecodeError) {
        let format = try ImageDecoders.format(of: bytes, path: path)
        var jpeg: ImageDecoders.JPEG.Header?
        var webp: ImageDecoders.WebP.Parsed?
        var heif: ImageDecoders.HEIF.Parsed?
        let header: ImageHeader
        switch format {
        case .png: header = try ImageDecoders.PNG.readHeader(bytes, path: path)
        case .jpeg:
            let info = try ImageDecoders.JPEG.readHeader(bytes, path: path)
            jpeg = info
            header = info.header
        case .webp:
            let parsed = try ImageDecoders.WebP.readHeaderAndProfile(bytes, path: path)
            webp = parsed
            header = parsed.header
        case .heic, .avif:
            let parsed = try ImageDecoders.HEIF.parse(
                bytes, format: format, path: path, limits: ImageDecoders.HEIF.headerLimits)
            heif = parsed
            header = parsed.header
        }
        self.bytes = bytes
        self.path = path
        self.header = header
        self.jpeg = jpeg
        self.webp = webp
        self.heif = heif
    }
}
