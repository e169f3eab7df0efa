// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumbkit thumb` end to end: in-process through `CLI.run` and as the real binary.
struct ThumbCommandTests {
    /// A folder with two good images (a 120×80 JPEG and a 64×64 PNG with alpha), a corrupt
    /// "JPEG", and a text file.
    static func fixture() throws -> URL {
        let dir = try TestBinary.temporaryDirectory("tk-thumb")
        var photo = PixelBuffer(width: 120, height: 80)
        for y in 0..<80 { for x in 0..<120 { photo[x, y] = RGBA(UInt8(x * 2), UInt8(y * 3), 128) } }
        try Data(ImageEncoders.encode(photo, options: EncodeOptions(format: .jpeg)))
            .write(to: dir.appendingPathComponent("photo.jpg"))
        var icon = PixelBuffer(width: 64, height: 64, fill: .transparent)
        for y in 16..<48 { for x in 16..<48 { icon[x, y] = RGBA(255, 0, 0) } }
        try Data(ImageEncoders.encode(icon, options: EncodeOptions(format: .png)))
            .write(to: dir.appendingPathComponent("icon.png"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3]).write(to: dir.appendingPathComponent("broken.jpg"))
        try Data("hello".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        return dir
    }

    static func run(_ arguments: [String]) async -> (status: Int32, stdout: String, stderr: String) {
        let out = TextOutput(capturingAsTerminal: false)
        let err = TextOutput(capturingAsTerminal: false)
        let status = await CLI.run(
            arguments, commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: [:])
        return (status, out.text, err.text)
    }

    @Test func aFolderWithOneBadFileExitsOneWithOneLineForIt() async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let r = await Self.run(["thumb", "-s", "32x32", "-o", out.path + "/%s.png", dir.path])
        #expect(r.status == 1)
        let errors = r.stderr.split(separator: "\n").filter { !$0.contains("notice:") && !$0.contains("warning:") }
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("thumbkit: \(dir.path)/broken.jpg: ") == true)
        #expect(r.stderr.contains("notes.txt: skipped"))
        #expect(r.stdout.contains("3 files: 2 succeeded, 1 failed"))
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(written == ["icon.png", "photo.png"])
    }

    @Test func scalesWriteSuffixedFilesAtMultiplesOfTheBox() async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let r = await Self.run([
            "thumb", "-s", "20x10", "--scales", "1,2,3", "-o", out.path + "/%s.png",
            dir.appendingPathComponent("photo.jpg").path,
        ])
        #expect(r.status == 0)
        for (name, w, h) in [("photo.png", 20, 10), ("photo@2x.png", 40, 20), ("photo@3x.png", 60, 30)] {
            let decoded = try ImageDecoders.decode(try FileIO.read(out.appendingPathComponent(name).path), path: name)
            #expect(decoded.buffer.width == w && decoded.buffer.height == h, "\(name)")
        }
    }

    @Test(.tags(.corpus)) func jobsDoNotChangeASingleByte() async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        var inputs = [dir.appendingPathComponent("photo.jpg").path, dir.appendingPathComponent("icon.png").path]
        if TestCorpus.isAvailable {
            inputs += [
                "photos/plasma_ColorfulCups_2560x1600.jpg", "photos/tuxpaint_anemone_red.png", "photos/coffee.png",
            ]
            .map { TestCorpus.url(for: $0).path }
        }
        var outputs: [[String: Data]] = []
        for jobs in ["1", "2"] {
            let out = dir.appendingPathComponent("out-j\(jobs)")
            let r = await Self.run(["thumb", "-s", "88x88", "-j", jobs, "-o", out.path + "/%s.jpg"] + inputs)
            #expect(r.status == 0, "\(r.stderr)")
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
                files[name] = try Data(contentsOf: out.appendingPathComponent(name))
            }
            #expect(files.count == inputs.count)
            outputs.append(files)
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func jsonReportIsTheOnlyThingOnStdout() async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = await Self.run(["thumb", "--json", "-s", "16", "-o", dir.path + "/out/%s.jpg", dir.path])
        #expect(r.status == 1)
        let report = try JSONDecoder().decode(BatchReport.self, from: Data(r.stdout.utf8))
        #expect(report.files == 3 && report.succeeded == 2 && report.failed == 1)
        #expect(report.items.first { $0.input.hasSuffix("broken.jpg") }?.error != nil)
        #expect(report.items.first { $0.input.hasSuffix("photo.jpg") }?.outputs.first?.width == 16)
    }

    @Test(arguments: [
        ["thumb"],
        ["thumb", "--fit", "sideways", "x.jpg"],
        ["thumb", "-s", "0x10", "x.jpg"],
        ["thumb", "-q", "101", "x.jpg"],
        ["thumb", "--scales", "1,zero", "x.jpg"],
        ["thumb", "--background", "chartreuse-ish", "x.jpg"],
    ])
    func badUsageExitsTwoWithoutTouchingAnything(_ arguments: [String]) async {
        let r = await Self.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("thumbkit: error: "))
    }

    @Test func aMissingArgumentIsAFailureNotAUsageError() async {
        let r = await Self.run(["thumb", "-o", "/tmp/tk-never/%s.jpg", "/nonexistent/file.jpg"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("thumbkit: /nonexistent/file.jpg: no such file or directory"))
    }

    @Test func twoInputsWithTheSameNameDoNotOverwriteEachOther() async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("icon.png"), to: sub.appendingPathComponent("photo.png"))
        let r = await Self.run([
            "thumb", "-s", "8", "-o", dir.path + "/out/%s.png", dir.appendingPathComponent("photo.jpg").path,
            sub.appendingPathComponent("photo.png").path,
        ])
        #expect(r.status == 1)
        #expect(r.stderr.contains("would overwrite the thumbnail of \(dir.path)/photo.jpg"))
    }

    /// The engine issue's acceptance run: every folder of the shared corpus, as the real
    /// binary: exit 1 (the corpus has rejects), one error line per rejected file, nothing written
    /// for them, a thumbnail for every file that must decode.
    @Test(.needsCorpus, .tags(.corpus, .realProcess)) func everyCorpusFolderThroughTheRealBinary() throws {
        guard TestCorpus.requireCorpus() else { return }
        let out = try TestBinary.temporaryDirectory("tk-corpus")
        defer { try? FileManager.default.removeItem(at: out) }
        let rows = TestCorpus.allRows
        let folders = Set(rows.map { URL(fileURLWithPath: $0.path).deletingLastPathComponent().relativePath }).sorted()
        for folder in folders {
            let target = out.appendingPathComponent(folder)
            let run = try TestBinary.run([
                "thumb", "-s", "88x88", "--fit", "fill", "-o", target.path + "/%s.png",
                TestCorpus.url(for: folder).path,
            ])
            let inFolder = rows.filter {
                URL(fileURLWithPath: $0.path).deletingLastPathComponent().relativePath == folder
            }
            let rejects = inFolder.filter { $0.expected == .reject }
            #expect(run.status == (rejects.isEmpty ? 0 : 1), "\(folder): \(run.stderr)")
            let errorLines = run.stderrLines.filter {
                !$0.hasPrefix("thumbkit: notice:") && !$0.hasPrefix("thumbkit: warning:")
            }
            #expect(errorLines.count == rejects.count, "\(folder): \(errorLines)")
            for row in inFolder {
                let name = URL(fileURLWithPath: row.path).deletingPathExtension().lastPathComponent + ".png"
                let exists = FileManager.default.fileExists(atPath: target.appendingPathComponent(name).path)
                #expect(exists == (row.expected == .decode), "\(row.path)")
                if row.expected == .reject {
                    #expect(
                        errorLines.contains { $0.hasPrefix("thumbkit: \(TestCorpus.url(for: row).path): ") },
                        "\(row.path)")
                }
            }
            // No temporary file is ever left behind.
            let leftovers =
                (try? FileManager.default.contentsOfDirectory(atPath: target.path))?.filter { $0.hasPrefix(".") } ?? []
            #expect(leftovers.isEmpty)
        }
    }

    @Test(.tags(.realProcess)) func theRealBinarySplitsStdoutFromStderrAndHasAVersion() throws {
        let version = try TestBinary.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("thumbkit "))
        let usage = try TestBinary.run(["thumb", "--no-such-flag"])
        #expect(usage.status == 2 && usage.stdout.isEmpty && usage.stderr.contains("unknown option '--no-such-flag'"))
        let help = try TestBinary.run(["thumb", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: thumbkit thumb") && help.stderr.isEmpty)
    }
}
