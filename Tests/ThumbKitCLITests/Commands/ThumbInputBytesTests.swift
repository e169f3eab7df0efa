// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

#if canImport(Glibc)
    import Glibc
#endif

/// File names are bytes: names that are not UTF-8 are walked, opened, written and shown
/// escaped; `-` reads stdin and `-o -` writes stdout.
struct ThumbInputBytesTests {
    /// Creates `folder/<name bytes>` with `contents` through `open(2)` on the raw bytes.
    static func create(_ folder: String, name: [UInt8], contents: [UInt8]) throws {
        var path = Array(folder.utf8) + [0x2F] + name
        path.append(0)
        let fd = path.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) {
                open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            }
        }
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == contents.count)
    }

    /// The raw names in a folder, through readdir.
    static func rawNames(_ folder: String) -> [[UInt8]] {
        (InputCollector.names(in: folder) ?? []).map(PathBytes.bytes)
    }

    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
    static let junkName: [UInt8] = [0xFF, 0xFE] + Array(".jpg".utf8)

    @Test func pathBytesRoundTripEveryByteAndRealEscapeScalars() {
        let samples: [[UInt8]] = [
            Self.latin1Name, Self.junkName, Array("plain/ascii.png".utf8), Array("é/😀".utf8),
            [0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0xE2, 0x82],  // overlong, surrogate, >U+10FFFF, cut
            Array("\u{10FF80}\u{10FFFF}".utf8),  // names that really hold the escape scalars
            Array(0x01...0xFF),
        ]
        for bytes in samples {
            #expect(PathBytes.bytes(PathBytes.string(bytes)) == bytes, "\(bytes)")
        }
        #expect(PathBytes.string(Array("é.png".utf8)) == "é.png")
        #expect(PathBytes.display(PathBytes.string(Self.latin1Name)) == "caf\\xE9.png")
    }

    @Test func aFolderWithNamesThatAreNotUTF8ProcessesEveryFile() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-bytes").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try Self.create(dir + "/in", name: Self.latin1Name, contents: GeneratedImages.png(seed: 1))
        try Self.create(dir + "/in", name: Self.junkName, contents: GeneratedImages.jpeg(seed: 2))
        try Self.create(dir + "/in", name: Array("ok.png".utf8), contents: GeneratedImages.png(seed: 3))
        try Self.create(dir + "/in", name: Array("bad\u{FF}".utf8) + [0xE9] + Array(".jpg".utf8), contents: [1, 2, 3])
        let r = await ThumbCommandTests.run(["thumb", "-s", "8", "-o", dir + "/out/%s.png", dir + "/in"])
        #expect(r.stdout.hasPrefix("4 files: 3 succeeded, 1 failed"), "\(r.stdout) \(r.stderr)")
        #expect(r.status == 1)
        // The failing name is shown with its raw byte escaped.
        #expect(r.stderr.contains("in/badÿ\\xE9.jpg: "))
        let expected: Set<[UInt8]> = [
            Array("caf".utf8) + [0xE9] + Array(".png".utf8), [0xFF, 0xFE] + Array(".png".utf8), Array("ok.png".utf8),
        ]
        #expect(Set(Self.rawNames(dir + "/out")) == expected)
    }

    @Test func aNameThatIsNotUTF8GivenExplicitlyIsOpened() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-bytes").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.create(dir, name: Self.latin1Name, contents: GeneratedImages.png(seed: 4))
        let argument = dir + "/" + PathBytes.string(Self.latin1Name)
        let r = await ThumbCommandTests.run(["thumb", "-s", "8", "-o", dir + "/out/%s.jpg", argument])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.rawNames(dir + "/out") == [Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)])
    }

    @Test func theJSONReportShowsRawBytesEscaped() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-bytes").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.create(dir, name: Self.latin1Name, contents: GeneratedImages.png(seed: 7))
        let argument = dir + "/" + PathBytes.string(Self.latin1Name)
        let r = await ThumbCommandTests.run(["thumb", "--json", "-s", "8", "-o", dir + "/out/%s.jpg", argument])
        #expect(r.status == 0)
        #expect(r.stdout.contains("caf\\\\xE9.png"))  // JSON escapes the backslash
        #expect(!r.stdout.unicodeScalars.contains { $0.value >= 0x10_FF80 })
    }

    /// Through the real binary and a shell, so the raw bytes come in through argv.
    @Test(.tags(.realProcess)) func theRealBinaryTakesRawBytesInArgvAndStdinToStdout() throws {
        let dir = try TestBinary.temporaryDirectory("tk-bytes").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.create(dir, name: Self.latin1Name, contents: GeneratedImages.png(width: 40, height: 30, seed: 5))
        let binary = TestBinary.thumbkit.path
        let script = """
            cd '\(dir)' && '\(binary)' thumb -s 8 -o 'out/%s.png' "$(printf 'caf\\351.png')" && \
            '\(binary)' thumb -s 10x6 --format jpeg -o - - < "$(printf 'caf\\351.png')" > piped.jpg
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errText)")
        #expect(Self.rawNames(dir + "/out") == [Self.latin1Name])
        let piped = try FileIO.read(dir + "/piped.jpg")
        let decoded = try ImageDecoders.decode(piped, path: "piped.jpg")
        #expect(ImageFormat.sniff(piped) == .jpeg)
        #expect(decoded.buffer.width == 10 && decoded.buffer.height == 6)
        #expect(errText.contains("1 file: 1 succeeded, 0 failed"))
    }

    @Test(arguments: [
        ["-o", "-", "a.png"],  // no --format
        ["--format", "png", "-o", "-", "a.png", "b.png"],  // two inputs
        ["--format", "png", "-", "-"],  // stdin twice
        ["--format", "png", "-o", "-", "--json", "a.png"],
        ["--format", "png", "-o", "-", "--scales", "1,2", "a.png"],
    ])
    func stdinAndStdoutMisuseIsAUsageError(_ options: [String]) async throws {
        let dir = try TestBinary.temporaryDirectory("tk-bytes").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["a.png", "b.png"] {
            try Data(GeneratedImages.png(seed: 6)).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        let fixed = options.map { $0.hasSuffix(".png") ? dir + "/" + $0 : $0 }
        let r = await ThumbCommandTests.run(["thumb", "-s", "8"] + fixed)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
