// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit

@testable import ThumbKitCLI

struct ThumbSizeFormTests {
    private static func box(_ argv: [String]) throws -> ParsedArguments.Size {
        let parser = ArgumentParser(root: CLI.rootSpec(commands: ThumbKitCommands.all))
        guard case .run(let parsed) = try parser.parse(["thumb"] + argv + ["a.jpg"]) else {
            throw UsageError.validationFailed("help")
        }
        return try ThumbCommand.box(try parsed[ThumbCommand.size], mode: try ThumbCommand.mode(parsed))
    }

    @Test(arguments: [
        (["-s", "88x88"], 88, 88),
        (["-s", "44"], 44, 44),
        (["-s", "720x", "--fit", "fit"], 720, ThumbCommand.anyHeight),
        (["-s", "720X", "--fit", "fit"], 720, ThumbCommand.anyHeight),
        (["-s", "x88", "--fit", "fit"], ThumbCommand.anyHeight, 88),
        (["-s", "X88", "--fit", "fit"], ThumbCommand.anyHeight, 88),
        // A one-sided box means fit without --fit, as in vipsthumbnail.
        (["-s", "720x"], 720, ThumbCommand.anyHeight),
        (["-s", "x200"], ThumbCommand.anyHeight, 200),
    ])
    func sizesGiveTheirBox(argv: [String], width: Int, height: Int) throws {
        #expect(try Self.box(argv) == ParsedArguments.Size(width: width, height: height))
    }

    @Test(arguments: [
        (
            ["-s", "720x", "--fit", "pad"],
            UsageError.invalidValue(option: "--size", value: "720x", reason: "a width-only size needs --fit fit")
        ),
        (
            ["-s", "720x", "--fit", "fill"],
            .invalidValue(option: "--size", value: "720x", reason: "a width-only size needs --fit fit")
        ),
        (
            ["-s", "0x", "--fit", "fit"],
            .invalidValue(option: "--size", value: "0x", reason: "expected WxH, N, Wx or xH (such as 720x or x88)")
        ),
        (
            ["-s", "-5x", "--fit", "fit"],
            .invalidValue(option: "--size", value: "-5x", reason: "expected WxH, N, Wx or xH (such as 720x or x88)")
        ),
        (
            ["-s", "x88", "--fit", "stretch"],
            .invalidValue(option: "--size", value: "x88", reason: "a height-only size needs --fit fit")
        ),
        (
            ["-s", "x0", "--fit", "fit"],
            .invalidValue(option: "--size", value: "x0", reason: "expected WxH, N, Wx or xH (such as 720x or x88)")
        ),
        (
            ["-s", "x", "--fit", "fit"],
            .invalidValue(option: "--size", value: "x", reason: "expected WxH (such as 88x88) or N for an NxN square")
        ),
    ])
    func badWidthOnlySizesAreUsageErrors(argv: [String], expected: UsageError) {
        #expect(throws: expected) { try Self.box(argv) }
    }

    @Test func aWidthOnlyFitKeepsTheAspectRatio() async throws {
        let folder = NSTemporaryDirectory() + "thumb-width-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try CompareCommandTests.writePNG(
            PixelBuffer(width: 64, height: 48, fill: RGBA(9, 99, 199)), in: folder, name: "in.png")
        let status = await CLI.run(
            ["thumb", "-s", "32x", "--fit", "fit", "-o", folder + "/%s-small.png", input],
            commands: ThumbKitCommands.all,
            stdout: TextOutput(), stderr: TextOutput())
        #expect(status == 0)
        let header = try ImageDecoders.readHeader(try FileIO.read(folder + "/in-small.png"), path: "in-small.png")
        #expect(header.width == 32 && header.height == 24)
    }

    @Test func aHeightOnlySizeFitsWithoutFitFit() async throws {
        let folder = NSTemporaryDirectory() + "thumb-height-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try CompareCommandTests.writePNG(
            PixelBuffer(width: 64, height: 48, fill: RGBA(9, 99, 199)), in: folder, name: "in.png")
        let status = await CLI.run(
            ["thumb", "-s", "x12", "-o", folder + "/%s-small.png", input], commands: ThumbKitCommands.all,
            stdout: TextOutput(), stderr: TextOutput())
        #expect(status == 0)
        let header = try ImageDecoders.readHeader(try FileIO.read(folder + "/in-small.png"), path: "in-small.png")
        #expect(header.width == 16 && header.height == 12)
    }
}
