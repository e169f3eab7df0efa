import Foundation

/// Converts decoded pixels from their source profile to sRGB with Little CMS, in place.
///
/// Untagged images are sRGB and left alone; so are images whose profile is sRGB in all but
/// name. A profile that cannot be used (corrupt, or of the wrong colour space) is a warning and
/// the image is treated as untagged. CMYK pixels always become RGBA: through their embedded
/// CMYK profile when there is a usable one, else through the built-in fallback
/// (`CMYKConversion`, the device conversion browsers use for untagged CMYK).
enum ColorManagement {
    /// What the conversion did.
    struct Outcome: Sendable {
        /// The profile the pixels are now in: nil for sRGB; the source profile when
        /// `keepProfile` left them unconverted.
        var profile: ColorProfile?
        /// Warnings for the batch log (one line each, without the path).
        var warnings: [String]
    }

    /// Converts `pixels` (4 bytes a pixel, laid out as `kind` says) to sRGB RGBA8.
    static func convert(
        _ pixels: inout [UInt8], kind: DecodedPixelKind, source: SourceColor, options: ColorOptions,
        cache: ColorTransformCache = .shared
    ) -> Outcome {
        var warnings = source.warnings
        switch kind {
        case .cmyk(let inverted):
            if let profile = source.profile {
                let key = ColorTransformCache.Key(
                    profile: profile, layout: inverted ? .cmykInverted : .cmyk, intent: options.intent,
                    blackPointCompensation: options.blackPointCompensation)
                switch cache.prepared(for: key) {
                case .transform(let transform):
                    transform.apply(&pixels)
                    return Outcome(profile: nil, warnings: warnings)
                case .identity:
                    break  // cannot happen for CMYK; fall back
                case .unusable(let reason):
                    warnings.append(SourceColor.ignored(reason))
                }
            }
            CMYKConversion.convertToRGBA(&pixels, inverted: inverted)
            return Outcome(profile: nil, warnings: warnings)

        case .rgb, .gray:
            guard let profile = source.profile else { return Outcome(profile: nil, warnings: warnings) }
            let layout: SourceLayout = kind == .gray && profile.colorSpaceSignature == "GRAY" ? .grayInRGBA : .rgba
            let key = ColorTransformCache.Key(
                profile: profile, layout: layout, intent: options.intent,
                blackPointCompensation: options.blackPointCompensation)
            let prepared = cache.prepared(for: key)
            if case .unusable(let reason) = prepared {
                warnings.append(SourceColor.ignored(reason))
                return Outcome(profile: nil, warnings: warnings)
            }
            if source.preExponent != 1 { raiseColours(&pixels, toPower: source.preExponent) }
            // Only an RGB profile can go into an (RGB) output file.
            if options.keepProfile, layout == .rgba {
                return Outcome(profile: profile, warnings: warnings)
            }
            if case .transform(let transform) = prepared { transform.apply(&pixels) }
            return Outcome(profile: nil, warnings: warnings)
        }
    }

    /// Raises R, G and B (not alpha) to `exponent` through a 256-entry table. Done on the 8-bit
    /// values rather than as a curve inside the lcms transform: a curve in front of the profile
    /// stops lcms from using its exact matrix-shaper path, and its sampled grid was off by up to
    /// twenty levels where colours clip.
    static func raiseColours(_ pixels: inout [UInt8], toPower exponent: Double) {
        let table = (0..<256).map { UInt8((pow(Double($0) / 255, exponent) * 255).rounded()) }
        var i = 0
        while i < pixels.count {
            pixels[i] = table[Int(pixels[i])]
            pixels[i + 1] = table[Int(pixels[i + 1])]
            pixels[i + 2] = table[Int(pixels[i + 2])]
            i += 4
        }
    }
}
