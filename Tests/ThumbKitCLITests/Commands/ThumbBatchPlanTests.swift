// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit thumb` plans the whole batch before writing: no output may be an input, no two
/// inputs share an output, and walking folders ends (links) and skips the run's own outputs.
struct ThumbBatchPlanTests {
    static func run(_ arguments: [String]) async -> (status: Int32, stdout: String, stderr: String) {
        await ThumbCommandTests.run(arguments)
    }

    static func write(_ bytes: [UInt8], _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func listing(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    @Test func anOutputThatIsAnotherInputIsRefusedAndBothSourcesAreKept() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let src = dir + "/src"
        try FileManager.default.createDirectory(atPath: src, withIntermediateDirectories: true)
        let jpeg = GeneratedImages.jpeg(seed: 1)
        let png = GeneratedImages.png(seed: 2)
        try Self.write(jpeg, src + "/cat.jpg")
        try Self.write(png, src + "/cat.png")
        let r = await Self.run(["thumb", "-s", "16", "-o", src + "/%s.jpg", src])
        #expect(r.status == 1)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: src + "/cat.jpg"))) == jpeg)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: src + "/cat.png"))) == png)
        #expect(r.stderr.contains("\(src)/cat.jpg: output \(src)/cat.jpg is the source itself"))
        #expect(r.stderr.contains("\(src)/cat.png: output \(src)/cat.jpg is \(src)/cat.jpg, another input"))
        #expect(r.stdout.contains("2 files: 0 succeeded, 2 failed"))
    }

    @Test func anInputSpelledThroughALinkIsStillRecognisedAsTheOutput() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/a", withIntermediateDirectories: true)
        let jpeg = GeneratedImages.jpeg(seed: 3)
        try Self.write(jpeg, dir + "/a/x.jpg")
        try Self.write(GeneratedImages.png(seed: 4), dir + "/a/x.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/via", withDestinationPath: dir + "/a")
        let r = await Self.run(["thumb", "-s", "8", "-o", dir + "/a/%s.jpg", dir + "/a/x.png", dir + "/via/x.jpg"])
        #expect(r.status == 1)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/a/x.jpg"))) == jpeg)
        #expect(r.stderr.contains("\(dir)/a/x.png: output \(dir)/a/x.jpg is \(dir)/via/x.jpg, another input"))
    }

    @Test func anOutputHardLinkedToAnotherInputIsRefused() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for sub in ["src", "out"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        let jpeg = GeneratedImages.jpeg(seed: 15)
        try Self.write(jpeg, dir + "/src/b.jpg")
        try Self.write(GeneratedImages.png(seed: 16), dir + "/src/a.png")
        try FileManager.default.linkItem(atPath: dir + "/src/b.jpg", toPath: dir + "/out/a.jpg")
        let r = await Self.run(["thumb", "-s", "8", "-o", dir + "/out/%s.jpg", dir + "/src"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(dir)/src/a.png: output \(dir)/out/a.jpg is \(dir)/src/b.jpg, another input"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/out/a.jpg"))) == jpeg)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/src/b.jpg"))) == jpeg)
        #expect(r.stdout.hasPrefix("2 files: 1 succeeded, 1 failed"))
    }

    @Test func aSecondRecursiveRunLeavesOutItsOwnOutputFolder() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photos = dir + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try Self.write(GeneratedImages.png(seed: 5), photos + "/a.png")
        for _ in 0..<2 {
            let r = await Self.run(["thumb", "-r", "-s", "8", "-o", photos + "/thumbs/%s.jpg", photos])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("1 file: 1 succeeded, 0 failed"))
        }
        #expect(Self.listing(photos + "/thumbs") == ["a.jpg"])
    }

    @Test func aRerunBesideTheSourcesLeavesOutItsEarlierThumbnailsAndExitsZero() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(GeneratedImages.jpeg(seed: 18), dir + "/a.jpg")
        try Self.write(GeneratedImages.png(seed: 19), dir + "/b.png")
        let first = await Self.run(["thumb", "-s", "8", "-o", dir + "/tn_%s.jpg", dir])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("left out"))
        for _ in 0..<2 {
            let again = await Self.run(["thumb", "-s", "8", "-o", dir + "/tn_%s.jpg", dir])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.hasPrefix("2 files: 2 succeeded, 0 failed"), "\(again.stdout)")
            let notices = again.stderr.split(separator: "\n").filter { $0.contains("left out") }
            #expect(
                notices == [
                    "thumbkit: notice: 2 earlier thumbnails left out (this template's outputs for other inputs)"
                ])
            #expect(Self.listing(dir) == ["a.jpg", "b.png", "tn_a.jpg", "tn_b.jpg"])
        }
    }

    @Test func aNameThatIsNotAnImageIsReportedBeforeItsOutputCollision() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), dir + "/c.gif")
        try Self.write([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], dir + "/c.tiff")
        try Self.write(Array("not a picture".utf8), dir + "/d.jpg")
        try Self.write(GeneratedImages.png(seed: 20), dir + "/d.png")
        let r = await Self.run([
            "thumb", "-s", "8", "-o", dir + "/out/%s.jpg", dir + "/c.gif", dir + "/c.tiff", dir + "/d.jpg",
            dir + "/d.png",
        ])
        #expect(r.status == 1)
        #expect(!r.stderr.contains("would overwrite"), "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let reason = { (name: String) in
            lines.first { $0.hasPrefix("thumbkit: \(dir)/\(name): ") }?.dropFirst("thumbkit: \(dir)/\(name): ".count)
        }
        // Each is refused for what it is, as when it is alone in the batch.
        #expect(reason("c.gif") != nil)
        #expect(reason("c.tiff") == reason("c.gif"))
        #expect(reason("d.jpg") == reason("c.gif"))
        // The one image among them gets its thumbnail.
        #expect(r.stdout.hasPrefix("4 files: 1 succeeded, 3 failed"), "\(r.stdout)")
        #expect(Self.listing(dir + "/out") == ["d.jpg"])
    }

    @Test func aLinkLoopIsWalkedOnce() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tree = dir + "/tree"
        try FileManager.default.createDirectory(atPath: tree + "/sub", withIntermediateDirectories: true)
        try Self.write(GeneratedImages.png(seed: 6), tree + "/a.png")
        try FileManager.default.createSymbolicLink(atPath: tree + "/loop", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: tree + "/sub/up", withDestinationPath: "..")
        let listed = InputCollector(recursive: true).collect([tree])
        #expect(listed.files == [tree + "/a.png"])
        #expect(listed.notices.filter { $0.contains("link loop") }.count == 2)
        let r = await Self.run(["thumb", "-r", "-s", "8", "-o", dir + "/out/%s.png", tree])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("1 file: 1 succeeded"))
    }

    @Test func aFolderWithImagesOnlyInSubfoldersPointsToRecursive() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/in/d1", withIntermediateDirectories: true)
        try Self.write(GeneratedImages.png(seed: 7), dir + "/in/d1/x.png")
        let r = await Self.run(["thumb", "-o", dir + "/out/%s.png", dir + "/in"])
        #expect(r.status == 1)
        let reason = "folder has no PNG, JPEG, WebP, HEIC or AVIF files (it has sub-folders: walk them with -r)"
        #expect(r.stderr.contains(reason))
    }

    @Test func theSubfolderPlaceholderMirrorsATree() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for sub in ["in/d1", "in/d2/deep"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        try Self.write(GeneratedImages.png(seed: 8), dir + "/in/top.png")
        try Self.write(GeneratedImages.png(seed: 9), dir + "/in/d1/x.png")
        try Self.write(GeneratedImages.jpeg(seed: 10), dir + "/in/d2/deep/x.jpg")
        let r = await Self.run(["thumb", "-r", "-s", "8", "-o", dir + "/out/%d/%s.png", dir + "/in"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.listing(dir + "/out") == ["d1", "d2", "top.png"])
        #expect(Self.listing(dir + "/out/d1") == ["x.png"])
        #expect(Self.listing(dir + "/out/d2/deep") == ["x.png"])
        let template = OutputTemplate("%d/%s.jpg")
        #expect(template.path(for: "in/x.png") == "x.jpg")  // never "/x.jpg"
        #expect(template.path(for: "in/a%d.png", subfolder: "q") == "q/a%d.jpg")
        #expect(OutputTemplate("t/%d/%s.jpg").outputRoot == "t")
    }

    @Test func aTemplateWithoutTheNameOverSeveralInputsIsAUsageErrorBeforeAnyWrite() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(GeneratedImages.png(seed: 11), dir + "/a.png")
        try Self.write(GeneratedImages.png(seed: 12), dir + "/b.png")
        let r = await Self.run(["thumb", "-s", "8", "-o", dir + "/out/one.png", dir + "/a.png", dir + "/b.png"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("has no %s"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }

    @Test(arguments: [
        ["-o", "%s.gif"],
        ["-o", "%s.webp", "--format", "png"],
        ["--format", "jpeg", "-o", "%s.png"],
        ["--format", "png", "-o", "%s.JPG"],
    ])
    func anExtensionThatIsUnsupportedOrContradictsTheFormatIsAUsageError(_ options: [String]) async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(GeneratedImages.png(seed: 13), dir + "/a.png")
        let fixed = options.map { $0.hasPrefix("%s") ? dir + "/out/" + $0 : $0 }
        let r = await Self.run(["thumb", "-s", "8"] + fixed + [dir + "/a.png"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--output"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }

    @Test(.tags(.realProcess)) func theDefaultTemplateTakesTheExtensionOfFormat() throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(GeneratedImages.jpeg(seed: 17), dir.path + "/a.jpg")
        let r = try TestBinary.run(["thumb", "-s", "8", "--format", "png", "a.jpg"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.listing(dir.path) == ["a.jpg", "tn_a.png"])
        #expect(ImageFormat.sniff(try FileIO.read(dir.path + "/tn_a.png")) == .png)
    }

    @Test func anAgreeingExtensionInAnyCaseStillWorks() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-plan").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(GeneratedImages.png(seed: 14), dir + "/a.png")
        let r = await Self.run(["thumb", "-s", "8", "--format", "png", "-o", dir + "/out/%s.PNG", dir + "/a.png"])
        #expect(r.status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/out/a.PNG")))
        #expect(ImageFormat.sniff(bytes) == .png)
    }
}
