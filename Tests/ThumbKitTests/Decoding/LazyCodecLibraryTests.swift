// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

/// libheif (and the codec stack behind it) is loaded at the first HEIF file, not at start-up.
/// The loader's check of its entry points is tested with the other lazily loaded libraries
/// (`LazyLibraryLoaderTests` in ThumbKitServeTests).
struct LazyCodecLibraryTests {
    /// What the dynamic loader says it loaded while `thumbkit arguments…` ran (`LD_DEBUG=files`
    /// lines, which go to stderr), and the run.
    private func loads(_ arguments: [String], in directory: URL) throws -> (run: TestBinary.Run, files: [String]) {
        let run = try TestBinary.run(arguments, environment: ["LD_DEBUG": "files"], in: directory)
        let files = run.stderr.split(separator: "\n").filter { $0.contains("file=") }.map(String.init)
        return (run, files)
    }

    @Test func startUpDoesNotLoadLibheifAndTheFirstHEIFFileDoes() throws {
        let dir = try TestBinary.temporaryDirectory("tk-lazy")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(GeneratedImages.png(seed: 4)).write(to: dir.appendingPathComponent("in.png"))

        let version = try loads(["--version"], in: dir)
        #expect(version.run.status == 0)
        // The loader did report its files (so an empty answer below is not a silent LD_DEBUG).
        #expect(version.files.contains { $0.contains("file=libpng16.so.16") })
        #expect(!version.files.contains { $0.contains("libheif") })
        // Nor libpq, which only a PostgreSQL catalog needs (LibPQLoaderTests).
        #expect(!version.files.contains { $0.contains("libpq") })
        // Nor libmicrohttpd, which only `serve` needs (LazyLibraryLoaderTests).
        #expect(!version.files.contains { $0.contains("libmicrohttpd") })

        let png = try loads(["thumb", "-s", "8", "-o", "out.png", "in.png"], in: dir)
        #expect(png.run.status == 0)
        #expect(!png.files.contains { $0.contains("libheif") })

        // Writing an AVIF needs libheif: it is loaded then, by the shim, not by the start-up.
        let avif = try loads(["thumb", "-s", "8", "-o", "out.avif", "in.png"], in: dir)
        #expect(avif.run.status == 0, "\(avif.run.stderr.suffix(500))")
        #expect(avif.files.contains { $0.contains("file=libheif.so.1") && $0.contains("dynamically loaded") })
        let decoded = try loads(["thumb", "-s", "4", "-o", "back.png", "out.avif"], in: dir)
        #expect(decoded.run.status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("back.png").path))
    }
}
