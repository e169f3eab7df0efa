/// Namespace for the decoders. `ImageDecoders.decode` picks one by the file's signature.
public enum ImageDecoders {
    /// Reads just the header of PNG or JPEG bytes (EXIF orientation included for JPEG).
    /// Throws `.empty`, `.notAnImage`, `.unsupported` or `.corrupt`; does not check limits.
    public static func readHeader(_ data: [UInt8], path: String) throws(DecodeError) -> ImageHeader {
        fatalError("implemented by the codec layer")
    }

    /// Decodes PNG or JPEG bytes into RGBA8, as stored (orientation not applied).
    ///
    /// - Parameters:
    ///   - minimumScale: the smallest decoded/original ratio the caller can use (0 < s ≤ 1).
    ///     A JPEG is decoded at the smallest DCT scale n/8 with n/8 ≥ minimumScale; PNG ignores it.
    /// - Throws: `DecodeError`; limits are checked from the header before pixels are allocated.
    public static func decode(
        _ data: [UInt8], path: String, options: DecodeOptions = DecodeOptions(), minimumScale: Double = 1
    ) throws(DecodeError) -> DecodedImage {
        fatalError("implemented by the codec layer")
    }
}
