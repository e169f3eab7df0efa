// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

/// `thumbkit thumb` with WebP, HEIC and AVIF: inputs found by their bytes, `-o '%s.webp'` /
/// `'%s.avif'` and `--format`, usage errors for formats it cannot write, and a batch that goes
/// on past a damaged file.
struct ThumbModernFormatsTests {
    /// A folder with w.webp, h.heic, a.avif (from a shared photo) and bad.avif (truncated).
    static let tools = ToolRequirement.programs(["cwebp", "heif-enc", "avifenc", "webpinfo"])

    static func inputs() throws -> URL? {
        guard TestCorpus.requireCorpus(), ToolRequirement.require(tools) else { return nil }
        let dir = try TestBinary.temporaryDirectory("tk-modern-cli")
        let photo = TestCorpus.url(for: "photos/chelsea.png").path
        try CodecTools.mustRun("cwebp", ["-quiet", "-q", "80", photo, "-o", dir.appendingPathComponent("w.webp").path])
        try CodecTools.mustRun("heif-enc", ["-q", "60", photo, "-o", dir.appendingPathComponent("h.heic").path])
        let avif = dir.appendingPathComponent("a.avif")
        try CodecTools.mustRun("avifenc", ["-s", "9", photo, avif.path])
        let bytes = try Data(contentsOf: avif)
        try bytes.prefix(bytes.count / 2).write(to: dir.appendingPathComponent("bad.avif"))
        return dir
    }

    @Test(.needsCorpus, .needs(tools), .tags(.corpus, .realProcess), arguments: ["webp", "avif"])
    func aBatchOfModernInputsGoesOnPastADamagedFile(_ ext: String) throws {
        guard let dir = try Self.inputs() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let r = try TestBinary.run(["thumb", "-s", "64", "-o", out.path + "/%s." + ext, dir.path])
        #expect(r.status == 1)
        let errors = r.stderrLines.filter { $0.hasPrefix("thumbkit: ") && !$0.contains("files:") }
        #expect(errors.count == 1 && errors.first?.contains("bad.avif: ") == true, "\(r.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(written == ["a", "h", "w"].map { $0 + "." + ext })
        for file in written {
            let data = [UInt8](try Data(contentsOf: out.appendingPathComponent(file)))
            #expect(ImageFormat.sniff(data) == ImageFormat(fileExtension: ext))
            let image = try ImageDecoders.decode(data, path: file).buffer
            #expect(image.width == 64 && image.height == 64)
        }
    }

    @Test(.needsCorpus, .needs(tools), .tags(.corpus, .realProcess))
    func formatFlagPicksTheDefaultNameAndLosslessWebP() throws {
        guard let dir = try Self.inputs() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("h.heic").path
        let r = try TestBinary.run(["thumb", "-s", "32", "--format", "webp", "--lossless", input], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir.appendingPathComponent("tn_h.webp")
        let info = try CodecTools.run("webpinfo", [out.path])
        #expect(info.output.contains("Format: Lossless"), "\(info.output)")
    }

    @Test(
        .tags(.realProcess),
        arguments: [
            ["thumb", "-o", "%s.heic", "x.png"],
            ["thumb", "--format", "heic", "x.png"],
            ["thumb", "-o", "%s.gif", "x.png"],
            ["thumb", "-o", "%s.webp", "--format", "avif", "x.png"],
            ["thumb", "--lossless", "-o", "%s.jpg", "x.png"],
            ["thumb", "--avif-speed", "3", "-o", "%s.webp", "x.png"],
            ["thumb", "--avif-speed", "12", "-o", "%s.avif", "x.png"],
        ])
    func formatsThumbKitCannotWriteAreUsageErrors(_ arguments: [String]) throws {
        let r = try TestBinary.run(arguments)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("thumbkit: error: "), "\(r.stderr)")
    }
}
