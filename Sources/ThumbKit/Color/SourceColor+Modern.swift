import CThumbKit

extension SourceColor {
    /// The ICC profile a WebP (ICCP chunk) or HEIC/AVIF (`colr` box of type `prof`/`rICC`)
    /// embeds; untagged (sRGB) when there is none or the header cannot be read. An nclx `colr`
    /// box is not an ICC profile and is taken as sRGB.
    static func embedded(in data: [UInt8], format: ImageFormat) -> SourceColor {
        let icc: [UInt8]?
        switch format {
        case .webp: icc = try? ImageDecoders.WebP.readHeaderAndProfile(data, path: "").icc
        case .heic, .avif:
            icc = try? ImageDecoders.HEIF.parse(data, format: format, path: "", limits: ImageLimits()).icc
        case .png, .jpeg: icc = nil
        }
        return icc.map { SourceColor(profile: ColorProfile(iccData: $0)) } ?? .srgb
    }
}
