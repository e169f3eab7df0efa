// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The colour an HEIF/AVIF nclx `colr` box states with ITU-T H.273 code points (colour
/// primaries, transfer characteristics), turned into what colour management takes: nothing for
/// sRGB, else an RGB matrix/TRC ICC profile built from the primaries' chromaticities, their
/// white and the transfer curve, which then goes the way an embedded ICC profile goes.
///
/// The matrix coefficients are not needed: libheif converts Y'CbCr to R'G'B' with them, and the
/// R'G'B' it hands out is still in the nclx primaries and transfer (libheif 1.15 converts no
/// gamut; measured in docs/colour.md). An ICC profile in the same file wins over the nclx box
/// (HEIF, ISO/IEC 23008-12), so this is used only without one.
struct NclxColor: Hashable, Sendable {
    /// H.273 ColourPrimaries (1 BT.709).
    var primaries: Int
    /// H.273 TransferCharacteristics (13 sRGB).
    var transfer: Int

    /// CIE 1931 xy chromaticities of three primaries and their white.
    struct Chromaticities: Sendable {
        var red: (x: Double, y: Double)
        var green: (x: Double, y: Double)
        var blue: (x: Double, y: Double)
        var white: (x: Double, y: Double)
    }

    /// What a transfer code means here.
    enum Transfer: Equatable, Sendable {
        /// The sRGB curve: sRGB itself, unspecified, and the camera curves of BT.709, BT.601 and
        /// BT.2020 (see `transfer(_:)`).
        case srgb
        /// Another SDR curve, as lcms builds it.
        case curve(LittleCMS.ToneCurve)
        /// An HDR curve ThumbKit refuses (it writes 8-bit SDR sRGB and does not tone-map): its name.
        case hdr(String)
        /// Reserved, or a curve not tabled: the sRGB curve is used, with a warning.
        case unknown
    }

    // D65 and Illuminant C, the whites H.273 uses besides DCI's.
    private static let d65 = (x: 0.3127, y: 0.3290)
    private static let illuminantC = (x: 0.310, y: 0.316)

    /// H.273 Table 2 (nil for reserved codes and for 10, CIE XYZ, which is not an RGB gamut lcms
    /// can build from chromaticities).
    static func chromaticities(_ code: Int) -> Chromaticities? {
        switch code {
        case 1, 2:  // BT.709 / sRGB; 2 is unspecified, taken as sRGB like an untagged file
            return Chromaticities(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060), white: d65)
        case 4:  // BT.470 System M (1953 NTSC)
            return Chromaticities(red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08), white: illuminantC)
        case 5:  // BT.470 System B, G; BT.601 625-line (PAL)
            return Chromaticities(red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06), white: d65)
        case 6, 7:  // BT.601 525-line, SMPTE 170M; SMPTE 240M
            return Chromaticities(red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070), white: d65)
        case 8:  // generic film (colour filters under Illuminant C)
            return Chromaticities(red: (0.681, 0.319), green: (0.243, 0.692), blue: (0.145, 0.049), white: illuminantC)
        case 9:  // BT.2020, BT.2100
            return Chromaticities(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: d65)
        case 11:  // SMPTE RP 431-2, DCI-P3 (DCI white)
            return Chromaticities(
                red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: (0.314, 0.351))
        case 12:  // SMPTE EG 432-1, Display P3 (D65)
            return Chromaticities(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: d65)
        case 22:  // EBU Tech. 3213-E
            return Chromaticities(red: (0.630, 0.340), green: (0.295, 0.605), blue: (0.155, 0.077), white: d65)
        default:
            return nil
        }
    }

    /// H.273 Table 3, as decoding curves (encoded value → linear light).
    ///
    /// BT.709, BT.601 and BT.2020 (1, 6, 14, 15) define a camera curve, not a display's, and are
    /// shown with the sRGB curve, as Chromium does (ui/gfx/color_space.cc: displays and media
    /// players use sRGB or 2.2 for them); so are xvYCC and BT.1361 (11, 12), which are BT.709's
    /// curve within 0…1. That keeps every BT.709-primaries nclx box a no-op.
    static func transfer(_ code: Int) -> Transfer {
        switch code {
        case 1, 2, 6, 11, 12, 13, 14, 15: return .srgb
        case 4: return .curve(.power(2.2))  // BT.470 System M
        case 5: return .curve(.power(2.8))  // BT.470 System B, G
        case 7:  // SMPTE 240M: 1.1115·L^0.45 − 0.1115 above L = 0.0228, else 4·L
            return .curve(.parametric(type: 4, parameters: [1 / 0.45, 1 / 1.1115, 0.1115 / 1.1115, 1 / 4, 4 * 0.0228]))
        case 8: return .curve(.power(1))  // linear
        case 9: return .curve(.table(logCurve(decades: 2)))  // logarithmic, 100:1
        case 10: return .curve(.table(logCurve(decades: 2.5)))  // logarithmic, 100·√10:1
        case 16: return .hdr("PQ (SMPTE ST 2084)")
        case 18: return .hdr("HLG (ARIB STD-B67)")
        default: return .unknown  // reserved, or 17 (SMPTE ST 428, only meaningful with XYZ primaries)
        }
    }

    /// H.273's logarithmic curves inverted: `V = 1 + log10(L) / decades`, V = 0 below the range.
    private static func logCurve(decades: Double) -> [Float] {
        (0..<1024).map { i in
            let v = Double(i) / 1023
            return v == 0 ? 0 : Float(pow(10, (v - 1) * decades))
        }
    }

    /// Why ThumbKit refuses this colour (an HDR transfer), or nil.
    var refusal: String? {
        guard case .hdr(let name) = Self.transfer(transfer) else { return nil }
        return
            "nclx transfer characteristics \(transfer), \(name), is HDR: ThumbKit makes 8-bit sRGB and does not tone-map"
    }

    /// The colour to convert from: sRGB (nothing to do) when the primaries are BT.709 or
    /// unspecified and the curve is sRGB's; else a built profile. Codes not tabled are taken as
    /// sRGB's primaries or curve, with a warning each. An HDR transfer is `refusal`'s business and
    /// is taken here as the sRGB curve.
    var sourceColor: SourceColor {
        var warnings: [String] = []
        let gamut: Chromaticities
        if let known = Self.chromaticities(primaries), ![1, 2].contains(primaries) {
            gamut = known
        } else {
            if Self.chromaticities(primaries) == nil {
                warnings.append("nclx colour primaries \(primaries) are reserved or not RGB; taken as sRGB's")
            }
            gamut = Self.chromaticities(1)!
        }
        let curve: LittleCMS.ToneCurve?
        switch Self.transfer(transfer) {
        case .srgb, .hdr: curve = nil
        case .curve(let tone): curve = tone
        case .unknown:
            warnings.append("nclx transfer characteristics \(transfer) are not supported; taken as sRGB's curve")
            curve = nil
        }
        let srgbGamut = Self.chromaticities(primaries) == nil || [1, 2].contains(primaries)
        if srgbGamut, curve == nil { return SourceColor(warnings: warnings) }
        guard let profile = Self.profile(for: self, gamut: gamut, curve: curve ?? .srgb) else {
            return SourceColor(
                warnings: warnings + ["nclx colour ignored (image treated as sRGB): Little CMS refused it"])
        }
        return SourceColor(profile: profile, warnings: warnings)
    }

    /// Built profiles by code pair: lcms stamps a profile with the time it was made, so building
    /// again would change its bytes (and miss the transform cache) every second.
    private static let built = Locked<[NclxColor: ColorProfile]>([:])

    private static func profile(for key: NclxColor, gamut: Chromaticities, curve: LittleCMS.ToneCurve) -> ColorProfile?
    {
        built.withLock { built in
            if let found = built[key] { return found }
            guard
                let bytes = LittleCMS.shared.rgbProfile(
                    white: gamut.white, red: gamut.red, green: gamut.green, blue: gamut.blue, curve: curve)
            else { return nil }
            let made = ColorProfile(iccData: bytes)
            built[key] = made
            return made
        }
    }
}
