// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension SourceColor {
    /// The colour a WebP (ICCP chunk) or HEIC/AVIF file states; untagged (sRGB) when there is
    /// nothing or the header cannot be read. HEIF: see `heif(icc:nclx:)`.
    static func embedded(in data: [UInt8], format: ImageFormat) -> SourceColor {
        switch format {
        case .webp:
            let icc = try? ImageDecoders.WebP.readHeaderAndProfile(data, path: "").icc
            return icc.map { SourceColor(profile: ColorProfile(iccData: $0)) } ?? .srgb
        case .heic, .avif:
            guard let parsed = try? ImageDecoders.HEIF.parse(data, format: format, path: "", limits: ImageLimits())
            else { return .srgb }
            return heif(icc: parsed.icc, nclx: parsed.nclx)
        case .png, .jpeg:
            return .srgb
        }
    }

    /// A HEIC/AVIF image's colour: its ICC profile (`colr` of type `prof`/`rICC`) when it has one,
    /// which wins over an nclx box as HEIF says; else its nclx box (`NclxColor.sourceColor`);
    /// else sRGB. An HDR nclx transfer is refused before this (`NclxColor.refusal`).
    static func heif(icc: [UInt8]?, nclx: NclxColor?) -> SourceColor {
        if let icc { return SourceColor(profile: ColorProfile(iccData: icc)) }
        return nclx?.sourceColor ?? .srgb
    }
}
