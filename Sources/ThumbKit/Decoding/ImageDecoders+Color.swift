extension ImageDecoders {
    /// Applies colour management to freshly decoded pixels: reads the file's profile (JPEG
    /// APP2 or PNG iCCP / sRGB / gAMA / cHRM), converts to sRGB as `options.color` says, and
    /// turns CMYK into RGBA. Every decoder calls it once, on its final pixels.
    static func manageColor(
        _ pixels: inout [UInt8], data: [UInt8], format: ImageFormat, kind: DecodedPixelKind, options: DecodeOptions
    ) -> ColorManagement.Outcome {
        let source: SourceColor
        switch format {
        case .jpeg: source = .jpeg(data)
        case .png: source = .png(data)
        }
        return ColorManagement.convert(&pixels, kind: kind, source: source, options: options.color)
    }
}
