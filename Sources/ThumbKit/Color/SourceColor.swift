// SPDX-License-Identifier: Apache-2.0
/// What a decoded image's colours mean, as its container says: an ICC profile, or nothing
/// (sRGB), plus any problem met while reading it.
struct SourceColor: Sendable, Hashable {
    /// The profile the decoded pixels are in; nil means sRGB (untagged images are sRGB).
    var profile: ColorProfile?
    /// The decoder raised the stored values to the power 1/`preExponent` before the profile
    /// could apply (libpng correcting a PNG's gAMA although it also has an iCCP profile); the
    /// stored values come back as decoded^`preExponent`. 1 when the pixels are as stored.
    var preExponent: Double = 1
    /// Problems met while reading the profile (the image is then treated as untagged).
    var warnings: [String] = []

    /// Untagged: sRGB.
    static let srgb = SourceColor()
}

/// The kind of pixels a decoder hands to colour management.
enum DecodedPixelKind: Hashable, Sendable {
    /// RGBA from a colour source.
    case rgb
    /// RGBA from a gray source (R = G = B): takes a gray or an RGB profile.
    case gray
    /// 4-byte CMYK as libjpeg returns it; `inverted` for Adobe APP14 files (255 − ink).
    case cmyk(inverted: Bool)
}
