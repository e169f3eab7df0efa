// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCLI

/// What the commands say about formats: every format ThumbKit reads where they name what it
/// reads, and only the formats it writes where they offer a choice of output.
struct FormatWordingTests {
    /// Help text as one line, so a phrase split by the wrapping still matches.
    static func help(_ argv: [String]) async -> String {
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(argv, commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: [:])
        #expect(status == 0, "\(argv): \(err.text)")
        return out.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(arguments: [
        (["--help"], "from PNG, JPEG, WebP, HEIC and AVIF files"),
        (["thumb", "--help"], "Make thumbnails of PNG, JPEG, WebP, HEIC and AVIF files."),
        (["thumb", "--help"], "the extension (jpg, jpeg, jpe, png, webp or avif) picks the format"),
        (["catalog", "set-image", "--help"], "PATH must be a PNG, JPEG, WebP, HEIC or AVIF file"),
        (["watch", "--help"], "DIR/bugs/<title>.<image> (png, jpg, jpeg, webp, heic, heif or avif)"),
    ])
    func helpNamesEveryFormatThumbKitReads(_ argv: [String], _ phrase: String) async {
        let text = await Self.help(argv)
        #expect(text.contains(phrase), "\(argv): \(text)")
        #expect(!text.contains("PNG and JPEG"), "\(argv)")
    }

    @Test func formatOffersAndAcceptsOnlyTheFormatsThumbKitWrites() async {
        #expect(await Self.help(["thumb", "--help"]).contains("(values: png, jpeg, webp, avif)"))
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(
            ["thumb", "--format", "heic", "x.png"], commands: ThumbKitCommands.all, stdout: out, stderr: err,
            environment: [:])
        #expect(status == ExitCode.usage.rawValue)
        #expect(
            err.text.hasPrefix(
                "thumbkit: error: invalid value 'heic' for option '--format': expected one of png, jpeg, webp, avif\n"))
    }
}
