// SPDX-License-Identifier: Apache-2.0
extension ImageDecoders {
    /// Applies colour management to freshly decoded pixels: reads the file's profile (JPEG
    /// APP2 or PNG iCCP / sRGB / gAMA / cHRM), converts to sRGB as `options.color` says, and
    /// turns CMYK into RGBA. Every whole-image decoder calls it once, on its final pixels.
    static func manageColor(
        _ pixels: inout [UInt8], data: [UInt8], format: ImageFormat, kind: DecodedPixelKind, options: DecodeOptions
    ) -> ColorManagement.Outcome {
        let conversion = colorConversion(data: data, format: format, kind: kind, options: options)
        conversion.apply(&pixels)
        return conversion.outcome
    }

    /// The conversion `manageColor` applies, prepared once: the row-by-row decoders apply it to
    /// each row as it is decoded (the same bytes as converting the whole image).
    static func colorConversion(
        data: [UInt8], format: ImageFormat, kind: DecodedPixelKind, options: DecodeOptions
    ) -> ColorManagement.Conversion {
        let source: SourceColor
        switch format {
        case .jpeg: source = .jpeg(data)
        case .png: source = .png(data)
        case .webp, .heic, .avif: source = .embedded(in: data, format: format)
        }
        return ColorManagement.prepare(kind: kind, source: source, options: options.color)
    }
}
