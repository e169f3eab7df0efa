// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKit

@testable import ThumbKitCLI

/// Every encoder option given for an output it does not apply to is a usage error (exit 2)
/// before any input is read, instead of being silently ignored (issue 27, item 14).
struct EncodingOptionsTests {
    private static func validate(_ argv: [String]) throws {
        let parser = ArgumentParser(root: CLI.rootSpec(commands: ThumbKitCommands.all))
        guard case .run(let parsed) = try parser.parse(["thumb"] + argv + ["a.jpg"]) else {
            throw UsageError.validationFailed("help")
        }
        try ThumbCommand.validate(parsed)
    }

    @Test(arguments: [
        (["--progressive", "-o", "%s.webp"], "--progressive applies only to JPEG output"),
        (["--progressive", "-o", "%s.png"], "--progressive applies only to JPEG output"),
        (["--subsampling", "4:4:4", "-o", "%s.webp"], "--subsampling applies only to JPEG output"),
        (["--subsampling", "4:2:0", "--format", "png", "-o", "%s"], "--subsampling applies only to JPEG output"),
        (["--subsampling", "4:4:4", "-o", "%s.avif"], "--subsampling applies only to JPEG output"),
        (["-q", "90", "-o", "%s.png"], "-q/--quality applies only to lossy output"),
        (["-q", "90", "--lossless", "-o", "%s.webp"], "-q/--quality applies only to lossy output"),
        (["--png-level", "9", "-o", "%s.jpg"], "--png-level applies only to PNG output"),
        (["--png-level", "9", "-o", "%s.webp"], "--png-level applies only to PNG output"),
        (["--lossless", "-o", "%s.png"], "--lossless applies only to WebP output"),
        (["--avif-speed", "3", "-o", "%s.jpg"], "--avif-speed applies only to AVIF output"),
    ])
    func anOptionForAnotherFormatIsAUsageError(argv: [String], message: String) {
        #expect {
            try Self.validate(argv)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test(arguments: [
        ["--progressive", "--subsampling", "4:4:4", "-q", "70", "-o", "%s.jpg"],
        ["-q", "70", "-o", "%s.webp"],
        ["--lossless", "-o", "%s.webp"],
        ["-q", "40", "--avif-speed", "8", "-o", "%s.avif"],
        ["--png-level", "9", "-o", "%s.png"],
        ["--format", "png", "--png-level", "1", "-o", "%s"],
    ])
    func anOptionForItsOwnFormatIsAccepted(argv: [String]) throws {
        try Self.validate(argv)
    }

    /// End to end: exit 2 and nothing written.
    @Test func theCommandExitsTwoAndWritesNothing() async throws {
        let r = await ThumbCommandTests.run(["thumb", "--png-level", "9", "-o", "/nonexistent/out/%s.jpg", "a.jpg"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("thumbkit: error: --png-level applies only to PNG output"), "\(r.stderr)")
    }
}
