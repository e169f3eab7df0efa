/// Namespace for the encoders.
public enum ImageEncoders {
    /// Encodes `image` as `options.format`. JPEG flattens any transparency onto
    /// `options.background`; PNG keeps alpha (and writes RGB when the image is opaque).
    public static func encode(_ image: PixelBuffer, options: EncodeOptions, path: String = "") throws(EncodeError) -> [UInt8] {
        fatalError("implemented by the codec layer")
    }
}
