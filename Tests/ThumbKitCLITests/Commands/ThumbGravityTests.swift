// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumb --gravity`: parsed into `ResizeOptions.gravity`, refused (exit 2) for a bad value or
/// with a fit other than fill, and applied to the output.
struct ThumbGravityTests {
    private static func settings(_ argv: [String]) throws -> ThumbCommand.Settings {
        let parser = ArgumentParser(root: CLI.rootSpec(commands: ThumbKitCommands.all))
        guard case .run(let parsed) = try parser.parse(["thumb"] + argv + ["a.jpg"]) else {
            throw UsageError.validationFailed("help")
        }
        return try ThumbCommand.settings(parsed)
    }

    @Test(arguments: [
        ("centre", Gravity.centre), ("center", .centre), ("north", .north), ("south-east", .southEast),
        ("west", .west), ("smart", .smart), ("focus:0.25,0.75", try! Gravity.focus(x: 0.25, y: 0.75)),
        ("focus:0,1", try! Gravity.focus(x: 0, y: 1)), ("north+0+10", Gravity.north.shifted(x: 0, y: 10)),
    ])
    func theValueBecomesTheResizeGravity(text: String, gravity: Gravity) throws {
        #expect(try Self.settings(["--gravity", text]).request.resize.gravity == gravity)
    }

    @Test func theDefaultIsCentre() throws {
        #expect(try Self.settings([]).request.resize.gravity == .centre)
        #expect(try Self.settings(["--fit", "pad"]).request.resize.gravity == .centre)
    }

    @Test(arguments: [
        "focus:nan,0.5", "focus:NaN,0", "focus:inf,0", "focus:0,-inf", "focus:1e-300,0", "focus:-0,0",
        "focus:1.5,0", "focus:0,-0.1", "focus:0.5", "focus:", "middle", "", "focus:0.5;0.5",
    ])
    func aBadValueIsAUsageError(text: String) {
        #expect {
            _ = try Self.settings(["--gravity", text])
        } throws: { error in
            guard case UsageError.invalidValue(let option, let value, _) = error else { return false }
            return option == "--gravity" && value == text
        }
    }

    @Test(arguments: ["fit", "pad", "stretch"])
    func gravityWithAnotherFitIsAUsageError(fit: String) {
        #expect {
            _ = try Self.settings(["--fit", fit, "--gravity", "north"])
        } throws: { error in
            "\(error)".contains("--gravity applies only to --fit fill")
        }
        // A width-only size means fit, too.
        #expect(throws: UsageError.self) { _ = try Self.settings(["-s", "720x", "--gravity", "smart"]) }
    }

    @Test func helpListsTheOption() async {
        let r = await ThumbCommandTests.run(["thumb", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--gravity <where>") && r.stdout.contains("focus:X,Y"), "\(r.stdout)")
    }

    /// End to end: exit 2, the message names the value, and nothing is written.
    @Test func theCommandExitsTwoForNaN() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-gravity")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = await ThumbCommandTests.run([
            "thumb", "--gravity", "focus:nan,0", "-o", dir.path + "/out/%s.png", "a.jpg",
        ])
        #expect(r.status == 2)
        #expect(
            r.stderr.hasPrefix("thumbkit: error: invalid value 'focus:nan,0' for option '--gravity'"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/out"))
    }

    /// A 300×100 picture, red on its left third, green in the middle, blue on its right third:
    /// a 50×50 fill keeps the third the gravity (and its shift) names.
    @Test func theOutputShowsTheSideTheGravityNames() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-gravity")
        defer { try? FileManager.default.removeItem(at: dir) }
        var image = PixelBuffer(width: 300, height: 100, fill: RGBA(0, 200, 0))
        for y in 0..<100 {
            for x in 0..<100 { image[x, y] = RGBA(200, 0, 0) }
            for x in 200..<300 { image[x, y] = RGBA(0, 0, 200) }
        }
        let input = dir.appendingPathComponent("thirds.png")
        try Data(ImageEncoders.encode(image, options: EncodeOptions(format: .png))).write(to: input)
        for (gravity, expected) in [
            ("west", RGBA(200, 0, 0)), ("east", RGBA(0, 0, 200)), ("centre", RGBA(0, 200, 0)),
            ("focus:0.1,0.5", RGBA(200, 0, 0)),
            // The scaled picture is 150×50: west moved 50 output pixels right shows the middle
            // third, and centre moved 50 right reaches the far edge.
            ("west+50+0", RGBA(0, 200, 0)), ("centre+50+0", RGBA(0, 0, 200)),
        ] {
            let out = dir.appendingPathComponent("out-\(gravity)/thirds.png")
            let r = await ThumbCommandTests.run([
                "thumb", "-s", "50x50", "--kernel", "box", "--gravity", gravity, "-o",
                dir.path + "/out-\(gravity)/%s.png", input.path,
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let thumb = try ImageDecoders.decode(try FileIO.read(out.path), path: out.path).buffer
            #expect(thumb[0, 0] == expected && thumb[49, 49] == expected, "\(gravity)")
        }
    }

    /// `--gravity smart` from a JPEG (whose rows stream into the resampler unless a smart crop
    /// needs the whole image): a textured, coloured subject at the right edge of a plain grey
    /// picture is in the thumbnail, and not in the centred one.
    @Test func smartKeepsTheSubject() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-gravity")
        defer { try? FileManager.default.removeItem(at: dir) }
        var image = PixelBuffer(width: 600, height: 200, fill: RGBA(128, 128, 128))
        for y in 40..<160 {
            for x in 470..<590 { image[x, y] = (x / 6 + y / 6) % 2 == 0 ? RGBA(230, 20, 20) : RGBA(250, 220, 0) }
        }
        let input = dir.appendingPathComponent("subject.jpg")
        try Data(ImageEncoders.encode(image, options: EncodeOptions(format: .jpeg))).write(to: input)
        var counts: [String: Int] = [:]
        for gravity in ["smart", "centre"] {
            let r = await ThumbCommandTests.run([
                "thumb", "-s", "64x64", "-j", "1", "--gravity", gravity, "-o", dir.path + "/\(gravity)/%s.png",
                input.path,
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let path = dir.path + "/\(gravity)/subject.png"
            let thumb = try ImageDecoders.decode(try FileIO.read(path), path: path).buffer
            // Red and yellow average to orange: red high, blue low; the grey has neither.
            counts[gravity] =
                (0..<thumb.pixelCount).filter {
                    thumb.pixels[$0 * 4] > 180 && thumb.pixels[$0 * 4 + 2] < 70
                }.count
        }
        #expect(counts["smart"]! > 1000, "\(counts)")
        #expect(counts["centre"]! == 0, "\(counts)")
    }
}
