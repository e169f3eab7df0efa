// SPDX-License-Identifier: Apache-2.0
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
        let conversion = prepare(kind: kind, source: source, options: options, cache: cache)
        conversion.apply(&pixels)
        return conversion.outcome
    }

    /// The conversion of one image, prepared once and applied to the whole buffer or to each
    /// row as a decoder hands it out (every step works pixel by pixel, so both give the same bytes).
    struct Conversion: Sendable {
        /// The steps, in order.
        enum Step: Sendable {
            /// Raise R, G and B to a power through a table (see `powerTable`).
            case raise(table: [UInt8])
            /// A Little CMS transform (or gray table) to sRGB.
            case transform(ColorTransform)
            /// The built-in CMYK → RGBA fallback.
            case naiveCMYK(inverted: Bool)
        }

        var steps: [Step]
        /// The profile and warnings the image ends up with.
        var outcome: Outcome

        /// Converts 4-byte pixels (a whole image or any run of its pixels) in place.
        func apply(_ pixels: inout [UInt8]) {
            for step in steps {
                switch step {
                case .raise(let table): ColorManagement.mapColours(&pixels, through: table)
                case .transform(let transform): transform.apply(&pixels)
                case .naiveCMYK(let inverted): CMYKConversion.convertToRGBA(&pixels, inverted: inverted)
                }
            }
        }

        /// True when `apply` leaves the pixels as they are.
        var isIdentity: Bool { steps.isEmpty }
    }

    /// What `convert` does to pixels of `kind` from `source`, prepared once (the transform comes
    /// from `cache`).
    static func prepare(
        kind: DecodedPixelKind, source: SourceColor, options: ColorOptions, cache: ColorTransformCache = .shared
    ) -> Conversion {
        var warnings = source.warnings
        switch kind {
        case .cmyk(let inverted):
            if let profile = source.profile {
                let key = ColorTransformCache.Key(
                    profile: profile, layout: inverted ? .cmykInverted : .cmyk, intent: options.intent,
                    blackPointCompensation: options.blackPointCompensation)
                switch cache.prepared(for: key) {
                case .transform(let transform):
                    return Conversion(
                        steps: [.transform(transform)], outcome: Outcome(profile: nil, warnings: warnings))
                case .identity:
                    break  // cannot happen for CMYK; fall back
                case .unusable(let reason):
                    warnings.append(SourceColor.ignored(reason))
                }
            }
            return Conversion(
                steps: [.naiveCMYK(inverted: inverted)], outcome: Outcome(profile: nil, warnings: warnings))

        case .rgb, .gray:
            guard let profile = source.profile else {
                return Conversion(steps: [], outcome: Outcome(profile: nil, warnings: warnings))
            }
            let layout: SourceLayout = kind == .gray && profile.colorSpaceSignature == "GRAY" ? .grayInRGBA : .rgba
            let key = ColorTransformCache.Key(
                profile: profile, layout: layout, intent: options.intent,
                blackPointCompensation: options.blackPointCompensation)
            let prepared = cache.prepared(for: key)
            if case .unusable(let reason) = prepared {
                warnings.append(SourceColor.ignored(reason))
                return Conversion(steps: [], outcome: Outcome(profile: nil, warnings: warnings))
            }
            var steps: [Conversion.Step] =
                source.preExponent != 1 ? [.raise(table: powerTable(source.preExponent))] : []
            // Only an RGB profile can go into an (RGB) output file.
            if options.keepProfile, layout == .rgba {
                return Conversion(steps: steps, outcome: Outcome(profile: profile, warnings: warnings))
            }
            if case .transform(let transform) = prepared { steps.append(.transform(transform)) }
            return Conversion(steps: steps, outcome: Outcome(profile: nil, warnings: warnings))
        }
    }

    /// The table that raises an 8-bit value to `exponent`. Applied to the 8-bit values rather
    /// than as a curve inside the lcms transform: a curve in front of the profile stops lcms from
    /// using its exact matrix-shaper path, and its sampled grid was off by up to twenty levels
    /// where colours clip.
    static func powerTable(_ exponent: Double) -> [UInt8] {
        (0..<256).map { UInt8((pow(Double($0) / 255, exponent) * 255).rounded()) }
    }

    /// Maps R, G and B (not alpha) of 4-byte pixels through a 256-entry table.
    static func mapColours(_ pixels: inout [UInt8], through table: [UInt8]) {
        var i = 0
        while i < pixels.count {
            pixels[i] = table[Int(pixels[i])]
            pixels[i + 1] = table[Int(pixels[i + 1])]
            pixels[i + 2] = table[Int(pixels[i + 2])]
            i += 4
        }
    }
}
