// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitQuality
import ThumbKitTestSupport

@testable import ThumbKit

/// AVIF colour stated by an nclx box alone: converted to sRGB from its primaries and curve, HDR
/// curves refused with one error, and an ICC profile in the same file winning over the box.
///
/// The wide-gamut pixels are made here from the sRGB fixture photo with the published
/// linear-light matrices (ITU-R BT.2087-0 for BT.2020; SMPTE EG 432-1 D65 for Display P3),
/// independent of Little CMS and of `NclxColor`'s tables, then tagged by avifenc.
struct ModernFormatNclxTests {
    /// A wide-gamut copy of an sRGB photo, tagged with an nclx box.
    struct Gamut: Sendable, CustomStringConvertible {
        var name: String
        /// avifenc's --cicp: primaries / transfer (13, sRGB) / matrix.
        var cicp: String
        /// Linear sRGB → linear target RGB, row-major.
        var matrix: [Double]
        var description: String { name }
    }

    static let gamuts = [
        Gamut(
            name: "BT.2020", cicp: "9/13/9",
            matrix: [0.6274, 0.3293, 0.0433, 0.0691, 0.9195, 0.0114, 0.0164, 0.0880, 0.8956]),
        Gamut(
            name: "Display P3", cicp: "12/13/6",
            matrix: [0.8225, 0.1774, 0.0000, 0.0332, 0.9669, 0.0000, 0.0171, 0.0724, 0.9108]),
    ]

    /// `image` with each pixel taken to linear light through `decode`, through `matrix`, and
    /// back through `encode`, rounded to 8 bits.
    static func convert(
        _ image: PixelBuffer, matrix m: [Double], decode: (Double) -> Double, encode: (Double) -> Double
    ) -> PixelBuffer {
        var out = image
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let c = (0..<3).map { decode(Double(image.pixels[i + $0]) / 255) }
            for k in 0..<3 {
                let v = m[k * 3] * c[0] + m[k * 3 + 1] * c[1] + m[k * 3 + 2] * c[2]
                out.pixels[i + k] = UInt8((encode(min(max(v, 0), 1)) * 255).rounded())
            }
        }
        return out
    }

    static func srgbToLinear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func linearToSRGB(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// Writes `image` as a PNG and encodes it to a near-lossless 4:4:4 AVIF with `extra` avifenc options.
    static func avif(
        _ image: PixelBuffer, _ name: String, in fixtures: ModernFormatFixtures, extra: [String]
    ) throws -> String {
        let png = fixtures.folder.appendingPathComponent("\(name).png")
        try Data(try ImageEncoders.encode(image, options: EncodeOptions(format: .png))).write(to: png)
        let avif = fixtures.folder.appendingPathComponent("\(name).avif").path
        try CodecTools.mustRun(
            "avifenc", ["-s", "8", "-y", "444", "--min", "0", "--max", "0"] + extra + [png.path, avif])
        return avif
    }

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus), arguments: gamuts)
    func wideGamutNclxIsConvertedToSRGB(_ gamut: Gamut) throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let photo = fixtures.sources["photo"]!
        let wide = Self.convert(photo, matrix: gamut.matrix, decode: Self.srgbToLinear, encode: Self.linearToSRGB)
        let path = try Self.avif(
            wide, "nclx-\(gamut.cicp.prefix { $0 != "/" })", in: fixtures, extra: ["--cicp", gamut.cicp])

        let decoded = try ImageDecoders.decodeFile(atPath: path)
        #expect(decoded.colorWarnings.isEmpty, "\(decoded.colorWarnings)")
        #expect(decoded.colorProfile == nil)
        // What libheif hands out, kept unconverted: still in the nclx primaries (libheif converts
        // Y'CbCr with the matrix, never the gamut), so measurably far from the sRGB photo.
        let kept = try ImageDecoders.decodeFile(
            atPath: path, options: DecodeOptions(color: ColorOptions(keepProfile: true)))
        #expect(kept.colorProfile?.colorSpaceSignature == "RGB")
        let raw = try ImageComparison.meanAbsoluteDifference(kept.buffer, photo)
        let rawToWide = try ImageComparison.meanAbsoluteDifference(kept.buffer, wide)
        let converted = try ImageComparison.meanAbsoluteDifference(decoded.buffer, photo)
        let deltaE = try ColorDifference.summary(decoded.buffer, photo)
        let rawDeltaE = try ColorDifference.summary(kept.buffer, photo)
        let note =
            "\(gamut): mean |Δ| converted \(converted), unconverted \(raw) (to the wide PNG \(rawToWide)); "
            + "ΔE2000 mean/p95 converted \(deltaE.mean)/\(deltaE.p95), unconverted \(rawDeltaE.mean)/\(rawDeltaE.p95)"
        print(note)
        #expect(rawToWide < 1, "\(note)")
        #expect(converted < 1.2, "\(note)")
        #expect(deltaE.mean < 1, "\(note)")
        #expect(raw > 3 * converted && rawDeltaE.mean > 2, "\(note)")
    }

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus), arguments: ["9/16/9", "9/18/9", "1/16/6"])
    func hdrNclxTransferIsOneClearError(_ cicp: String) throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let name = "hdr-" + cicp.replacingOccurrences(of: "/", with: "-")
        let path = try Self.avif(fixtures.sources["photo"]!, name, in: fixtures, extra: ["--cicp", cicp])
        do {
            let decoded = try ImageDecoders.decodeFile(atPath: path)
            Issue.record("an HDR (\(cicp)) AVIF decoded, with warnings \(decoded.colorWarnings)")
        } catch {
            guard case .unsupported(let at, let reason) = error else {
                Issue.record("expected .unsupported, got \(error)")
                return
            }
            #expect(at == path)
            #expect(reason.contains("is HDR") && reason.contains(cicp.hasPrefix("9/18") ? "HLG" : "PQ"), "\(reason)")
            #expect("\(error)".contains(path) && !"\(error)".contains("\n"), "\(error)")
        }
    }

    /// An ICC profile and an nclx box that disagree: the profile is used (HEIF), even when the box
    /// names an HDR curve that would otherwise be refused.
    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus), arguments: ["12/13/6", "9/16/9", "1/13/6"])
    func iccProfileWinsOverNclx(_ cicp: String) throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let photo = fixtures.sources["photo"]!
        // BT.2020 primaries with a pure 2.2 power curve: the profile and the pixels agree.
        let icc = try #require(
            LittleCMS.shared.rgbProfile(
                white: (0.3127, 0.3290), red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046),
                exponent: 2.2))
        let name = "icc-nclx-" + cicp.replacingOccurrences(of: "/", with: "-")
        // One profile file per case: the cases run in parallel, and each profile carries its own
        // creation time, so a shared file could hold another case's bytes.
        let iccFile = fixtures.folder.appendingPathComponent("bt2020-g22-\(name).icc")
        try Data(icc).write(to: iccFile)
        let wide = Self.convert(
            photo, matrix: Self.gamuts[0].matrix, decode: Self.srgbToLinear, encode: { pow($0, 1 / 2.2) })
        let path = try Self.avif(wide, name, in: fixtures, extra: ["--icc", iccFile.path, "--cicp", cicp])
        let parsed = try ImageDecoders.HEIF.parse(
            try fixtures.bytes("\(name).avif"), format: .avif, path: path, limits: ImageLimits())
        #expect(parsed.icc == icc)
        let codes = cicp.split(separator: "/").map { Int($0)! }
        #expect(parsed.nclx == NclxColor(primaries: codes[0], transfer: codes[1]))

        let decoded = try ImageDecoders.decodeFile(atPath: path)
        let converted = try ImageComparison.meanAbsoluteDifference(decoded.buffer, photo)
        let unconverted = try ImageComparison.meanAbsoluteDifference(wide, photo)
        #expect(decoded.colorWarnings.isEmpty, "\(decoded.colorWarnings)")
        #expect(
            converted < 1.2 && unconverted > 3 * converted, "\(cicp): converted \(converted), as stored \(unconverted)")
    }

    @Test func bt709AndUnspecifiedNclxAreSRGBWithNothingToDo() {
        for primaries in [1, 2] {
            for transfer in [1, 2, 6, 13, 14, 15] {
                #expect(
                    NclxColor(primaries: primaries, transfer: transfer).sourceColor == .srgb, "\(primaries)/\(transfer)"
                )
            }
        }
        // BT.709 primaries with another curve are converted; reserved codes are warned about.
        #expect(NclxColor(primaries: 1, transfer: 8).sourceColor.profile != nil)
        #expect(NclxColor(primaries: 1, transfer: 8).sourceColor.warnings.isEmpty)
        let reserved = NclxColor(primaries: 3, transfer: 19).sourceColor
        #expect(reserved.profile == nil && reserved.warnings.count == 2, "\(reserved.warnings)")
        #expect(NclxColor(primaries: 9, transfer: 16).refusal != nil)
        #expect(NclxColor(primaries: 9, transfer: 13).refusal == nil)
    }

    /// Every tabled primaries × SDR curve gives a profile lcms accepts, built once (same bytes on
    /// a second call, so the transform cache keeps hitting).
    @Test func everyTabledCodeBuildsAProfileOnce() {
        for primaries in [4, 5, 6, 7, 8, 9, 11, 12, 22] {
            for transfer in [1, 4, 5, 7, 8, 9, 10, 13] {
                let nclx = NclxColor(primaries: primaries, transfer: transfer)
                let first = nclx.sourceColor
                #expect(first.profile?.colorSpaceSignature == "RGB", "\(primaries)/\(transfer): \(first.warnings)")
                #expect(first.warnings.isEmpty, "\(primaries)/\(transfer): \(first.warnings)")
                #expect(nclx.sourceColor == first)
            }
        }
    }
}
