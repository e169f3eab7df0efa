// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKit
@testable import ThumbKitCLI

/// `thumbkit thumb --intent / --bpc / --keep-profile`, end to end through the real command.
struct ThumbCommandColorTests {
    /// A 32×32 JPEG tagged with an Adobe RGB (1998)-like profile, in a fresh folder.
    static func taggedJPEG() throws -> (folder: String, file: String, profile: ColorProfile) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("thumbkit-color-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let icc = try #require(
            LittleCMS.shared.rgbProfile(
                white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
                exponent: 563.0 / 256))
        let profile = ColorProfile(iccData: icc)
        let image = PixelBuffer(width: 32, height: 32, fill: RGBA(30, 200, 60))
        let file = folder + "/green.jpg"
        try FileIO.writeAtomically(
            try ImageEncoders.encode(image, options: EncodeOptions(), profile: profile), to: file)
        return (folder, file, profile)
    }

    static func run(_ argv: [String]) async -> (status: Int32, stderr: String) {
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(argv, commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: [:])
        return (status, err.text)
    }

    @Test func keepProfileEmbedsTheSourceProfileAndTheDefaultConvertsToSRGB() async throws {
        let (folder, file, profile) = try Self.taggedJPEG()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let kept = await Self.run(
            [
                "thumb", "-s", "16", "--keep-profile", "--intent", "perceptual", "--bpc", "-o", folder + "/kept_%s.png",
                file,
            ])
        #expect(kept.status == 0, "\(kept.stderr)")
        let keptPNG = try FileIO.read(folder + "/kept_green.png", maxBytes: 1 << 20)
        #expect(SourceColor.png(keptPNG).profile == profile)

        let converted = await Self.run(["thumb", "-s", "16", "-o", folder + "/srgb_%s.png", file])
        #expect(converted.status == 0, "\(converted.stderr)")
        let srgbPNG = try FileIO.read(folder + "/srgb_green.png", maxBytes: 1 << 20)
        #expect(SourceColor.png(srgbPNG) == .srgb)
        // Adobe RGB's green is more saturated than sRGB's: converted, red goes negative (clips).
        let keptPixel = try ImageDecoders.decode(
            keptPNG, path: "kept", options: DecodeOptions(color: ColorOptions(keepProfile: true))
        ).buffer[8, 8]
        let srgbPixel = try ImageDecoders.decode(srgbPNG, path: "srgb").buffer[8, 8]
        #expect(Int(srgbPixel.r) < Int(keptPixel.r) - 20)
    }

    @Test func unknownIntentIsAUsageError() async {
        let run = await Self.run(["thumb", "--intent", "vivid", "a.jpg"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("thumbkit: error: invalid value 'vivid' for option '--intent'"))
    }
}
