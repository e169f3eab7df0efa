// SPDX-License-Identifier: Apache-2.0
/// How Little CMS maps colours that the destination (sRGB) cannot show, or how it adapts white.
/// The raw values are the ICC rendering intents, as lcms numbers them.
public enum RenderingIntent: String, Sendable, Hashable, Codable, CaseIterable {
    /// Compresses the whole source gamut into sRGB (uses a profile's perceptual tables).
    case perceptual
    /// Keeps in-gamut colours exactly and clips the rest; white maps to white (the default).
    case relative
    /// Favours vivid colours over accuracy (uses a profile's saturation tables).
    case saturation
    /// Like relative, but without white-point adaptation: paper white stays tinted.
    case absolute

    /// The ICC / lcms intent number (INTENT_PERCEPTUAL … INTENT_ABSOLUTE_COLORIMETRIC).
    var lcmsValue: UInt32 {
        switch self {
        case .perceptual: return 0
        case .relative: return 1
        case .saturation: return 2
        case .absolute: return 3
        }
    }
}

/// What the decoder does with an image's colour profile. The output is always 8-bit sRGB unless
/// `keepProfile` keeps an RGB source profile to embed in the output instead.
public struct ColorOptions: Sendable, Hashable, Codable {
    /// Rendering intent of the conversion to sRGB.
    public var intent: RenderingIntent
    /// Black-point compensation: maps the source's black to sRGB's black (lcms
    /// `cmsFLAGS_BLACKPOINTCOMPENSATION`); matters for relative and perceptual intents.
    public var blackPointCompensation: Bool
    /// Leave RGB pixels in their embedded profile and embed that profile in the output instead of
    /// converting. CMYK sources, gray profiles and profiles that cannot be parsed are still
    /// converted (or ignored with a warning), so a non-sRGB profile is never dropped unconverted.
    public var keepProfile: Bool

    public init(intent: RenderingIntent = .relative, blackPointCompensation: Bool = false, keepProfile: Bool = false) {
        self.intent = intent
        self.blackPointCompensation = blackPointCompensation
        self.keepProfile = keepProfile
    }

    /// `color/v1?intent=relative,bpc=0,keep=0`: every option, explicitly formatted; a format
    /// change bumps `v1`. Part of the key of anything made from decoded pixels.
    public var identifier: String {
        "color/v1?intent=\(intent.rawValue),bpc=\(blackPointCompensation ? 1 : 0),keep=\(keepProfile ? 1 : 0)"
    }
}
