// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// The words of `thumbkit thumb`: plurals, no rate without a success, "did you mean", colours.
struct ThumbMessagesTests {
    static func item(ok: Bool, warnings: Int = 0) -> BatchItem {
        BatchItem(
            input: "a.png", outputs: [], error: ok ? nil : "a.png: bad",
            warnings: Array(repeating: "w", count: warnings),
            megapixels: 0)
    }

    @Test func theSummaryCountsInTheSingularAndShowsNoRateWithoutASuccess() {
        let one = ThumbCommand.summary(BatchReport(items: [Self.item(ok: true, warnings: 1)], wallSeconds: 0.5))
        #expect(one.hasPrefix("1 file: 1 succeeded, 0 failed, 1 warning; "))
        #expect(one.hasSuffix("images/s)"))
        let failed = ThumbCommand.summary(BatchReport(items: [Self.item(ok: false)], wallSeconds: 0.00003))
        #expect(failed.hasPrefix("1 file: 0 succeeded, 1 failed; "))
        #expect(!failed.contains("images/s"))
        let two = ThumbCommand.summary(
            BatchReport(items: [Self.item(ok: true, warnings: 2), Self.item(ok: true)], wallSeconds: 1))
        #expect(two.hasPrefix("2 files: 2 succeeded, 0 failed, 2 warnings; "))
    }

    @Test func aMistypedOptionOrCommandGetsASuggestion() async {
        let option = await ThumbCommandTests.run(["thumb", "--qualty", "80", "x.jpg"])
        #expect(option.status == 2)
        #expect(option.stderr.contains("unknown option '--qualty'\nDid you mean '--quality'?\n"))
        let command = await ThumbCommandTests.run(["thum", "x.jpg"])
        #expect(command.status == 2)
        #expect(command.stderr.contains("Did you mean 'thumb'?"))
        let farOff = await ThumbCommandTests.run(["thumb", "--zzzzzzzz", "x.jpg"])
        #expect(!farOff.stderr.contains("Did you mean"))
        #expect(Suggestion.nearest(to: "recusive", among: ["recursive", "quality"]) == "recursive")
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    }

    @Test func everyCSSColourNameIsAccepted() async throws {
        #expect(CSSColors.named.count == 148)
        #expect(CSSColors.parse("RebeccaPurple") == RGBA(102, 51, 153))
        #expect(CSSColors.parse("gray") == RGBA(128, 128, 128))
        #expect(CSSColors.parse("green") == RGBA(0, 128, 0))
        #expect(CSSColors.parse("#ff000080") == RGBA(255, 0, 0, 128))
        #expect(CSSColors.parse("reddish") == nil)
        // Through the command: a transparent PNG flattened onto red in a JPEG.
        let dir = try TestBinary.temporaryDirectory("tk-colour").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clear = PixelBuffer(width: 16, height: 16, fill: .transparent)
        try Data(ImageEncoders.encode(clear, options: EncodeOptions(format: .png)))
            .write(to: URL(fileURLWithPath: dir + "/clear.png"))
        let r = await ThumbCommandTests.run([
            "thumb", "-s", "8", "--background", "red", "-o", dir + "/%s_tn.jpg", dir + "/clear.png",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let decoded = try ImageDecoders.decode(try FileIO.read(dir + "/clear_tn.jpg"), path: "clear_tn.jpg")
        let pixel = decoded.buffer[4, 4]
        #expect(pixel.r > 240 && pixel.g < 20 && pixel.b < 20, "\(pixel)")
    }
}
