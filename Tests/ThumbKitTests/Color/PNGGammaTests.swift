// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// PngSuite's gamma files (g03 … g25) decode as a colour-managed browser shows them.
///
/// The rule (Chromium's, see `SourceColor.png`): a gAMA-only file whose gamma × 2.2 is within
/// 5 % of 1 is sRGB (g04, gamma 0.45, is shown as stored); any other gamma g means linear light
/// = stored^(1/g), shown through the sRGB curve. The expected pixels are computed here from the
/// stored samples, which libpng hands back once the gAMA chunk is taken out of the file.
struct PNGGammaTests {
    static let files = TestCorpus.rows { $0.path.hasPrefix("pngsuite/g") }.map(\.path)

    @Test(.needsCorpus, .tags(.corpus)) func everyPngSuiteGammaFileIsListed() {
        guard TestCorpus.requireCorpus() else { return }
        #expect(Self.files.count == 18)  // six gammas × gray 16-bit, RGB 8-bit, palette 4-bit
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: files)
    func gammaFileDecodesToTheSRGBOfItsLinearLight(_ path: String) throws {
        let data = try TestCorpus.bytes(of: path)
        // PngSuite's file gammas by name: g03 is 0.35, g04 0.45, … g25 2.50.
        let gammas = ["03": 0.35, "04": 0.45, "05": 0.55, "07": 0.70, "10": 1.00, "25": 2.50]
        let gamma = try #require(gammas[String(path.dropFirst("pngsuite/g".count).prefix(2))])
        let shown = try ImageDecoders.decode(data, path: path).buffer
        let stored = try ImageDecoders.decode(ColorFixtures.removingGAMA(data), path: path).buffer
        let neutral = !SourceColor.libpngCorrects(gamma: gamma)
        #expect(neutral == (gamma == 0.45))
        var worst = 0
        for i in 0..<stored.pixels.count where i % 4 != 3 {
            let s = Double(stored.pixels[i]) / 255
            let expected = neutral ? s : ColorTransfer.linearToSRGB(pow(s, 1 / gamma))
            worst = max(worst, abs(Int(shown.pixels[i]) - Int((expected * 255).rounded())))
        }
        // 16-bit files are compared through 8-bit stored samples, hence a little more slack.
        #expect(worst <= (path.contains("n0g16") ? 3 : 1), "\(path): off by \(worst)")
    }

    @Test(.needsCorpus, .tags(.corpus)) func untaggedSixteenBitPNGIsSRGBNotLinearLight() throws {
        guard TestCorpus.requireCorpus() else { return }
        // basn0g16 says gAMA 1.0 (linear); without that chunk it is an untagged 16-bit file,
        // which browsers show as sRGB (libpng's simplified API alone would take it as linear).
        let data = try TestCorpus.bytes(of: "pngsuite/basn0g16.png")
        let linear = try ImageDecoders.decode(data, path: "linear").buffer
        let untagged = try ImageDecoders.decode(ColorFixtures.removingGAMA(data), path: "untagged").buffer
        #expect(untagged != linear)
        for i in stride(from: 0, to: untagged.pixels.count, by: 4) {
            let expected = ColorTransfer.linearToSRGB(Double(untagged.pixels[i]) / 255) * 255
            #expect(abs(Double(linear.pixels[i]) - expected) <= 3)
        }
    }

    @Test(.needsCorpus, .tags(.corpus)) func keptProfileOfAGammaFileDescribesLibpngsOutput() throws {
        guard TestCorpus.requireCorpus() else { return }
        // g10 (linear): libpng outputs linear^(1/2.2); the kept profile says exactly that.
        let path = "pngsuite/g10n2c08.png"
        let kept = try ImageDecoders.decode(
            try TestCorpus.bytes(of: path), path: path, options: DecodeOptions(color: ColorOptions(keepProfile: true)))
        let profile = try #require(kept.colorProfile)
        #expect(profile.colorSpaceSignature == "RGB")
        let converted = try ImageDecoders.decode(try TestCorpus.bytes(of: path), path: path)
        var pixels = kept.buffer.pixels
        _ = ColorManagement.convert(&pixels, kind: .rgb, source: SourceColor(profile: profile), options: ColorOptions())
        #expect(firstMismatch(pixels, converted.buffer.pixels) == nil)
    }
}
