// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension SourceColor {
    /// A PNG's colour, read the way a colour-managed browser (Chromium's PNG decoder) reads it,
    /// applied to the pixels `png_rows.c` produces (libpng's reader with the transforms its
    /// simplified API chooses for 8-bit RGBA):
    /// - iCCP: that profile. libpng applies a significant gAMA before we see the pixels, so the
    ///   stored values are first recovered (`preExponent`).
    /// - sRGB: sRGB, nothing to do.
    /// - gAMA with cHRM: the cHRM primaries and white, with the gAMA power law.
    /// - gAMA alone: sRGB when gamma × 2.2 is within 5 % of 1 (libpng's own threshold, below which
    ///   it leaves the values alone), else sRGB primaries with the gAMA power law.
    /// - nothing, or cHRM alone: sRGB.
    ///
    /// libpng's simplified API outputs every gamma-corrected value as `linear^(1/2.2)`, a pure
    /// power law (not the sRGB curve), so the profile built for corrected pixels has a 2.2 curve;
    /// pixels libpng left alone get the file's own 1/gamma curve.
    static func png(_ data: [UInt8]) -> SourceColor {
        var raw = tk_png_color()
        var icc: UnsafeMutablePointer<UInt8>? = nil
        var iccSize = 0
        var err = CodecMessage.buffer()
        let rc = data.withUnsafeBufferPointer {
            tk_png_read_color($0.baseAddress, $0.count, &raw, &icc, &iccSize, &err)
        }
        defer { tk_free(icc) }
        // A file whose header cannot be read fails in the decoder, with the decoder's message.
        guard rc == 0 else { return .srgb }
        let gamma = raw.has_gamma != 0 ? Double(raw.gamma) / 100_000 : nil
        let corrected = gamma.map(libpngCorrects) ?? false
        if let icc, iccSize > 0 {
            let bytes = [UInt8](UnsafeBufferPointer(start: icc, count: iccSize))
            return SourceColor(profile: ColorProfile(iccData: bytes), preExponent: corrected ? gamma! * 2.2 : 1)
        }
        if raw.has_srgb != 0 { return .srgb }
        guard let gamma else { return .srgb }
        let exponent = corrected ? 2.2 : 1 / gamma
        let c = withUnsafeBytes(of: raw.chrm) { Array($0.bindMemory(to: UInt32.self)) }.map { Double($0) / 100_000 }
        let built: [UInt8]?
        if raw.has_chrm != 0 {
            built = LittleCMS.shared.rgbProfile(
                white: (c[0], c[1]), red: (c[2], c[3]), green: (c[4], c[5]), blue: (c[6], c[7]), exponent: exponent)
        } else if corrected {
            built = LittleCMS.shared.rgbProfile(
                white: srgbWhite, red: srgbRed, green: srgbGreen, blue: srgbBlue, exponent: exponent)
        } else {
            return .srgb
        }
        guard let built else {
            return SourceColor(warnings: [
                "PNG cHRM/gAMA chunks ignored (image treated as sRGB): Little CMS refused them"
            ])
        }
        return SourceColor(profile: ColorProfile(iccData: built))
    }

    /// True when libpng's simplified API gamma-corrects a file of this gAMA for its 8-bit
    /// output (png_gamma_significant on gamma × 2.2, threshold 0.05).
    static func libpngCorrects(gamma: Double) -> Bool {
        let product = gamma * 2.2
        return product < 0.95 || product > 1.05
    }

    // sRGB / Rec. 709 primaries and D65 (IEC 61966-2-1).
    static let srgbWhite = (x: 0.3127, y: 0.3290)
    static let srgbRed = (x: 0.64, y: 0.33)
    static let srgbGreen = (x: 0.30, y: 0.60)
    static let srgbBlue = (x: 0.15, y: 0.06)
}
