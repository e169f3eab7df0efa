// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

/// Inputs the fuzzers found, kept as seeds under `Fuzz/Seeds/<target>/`: each `regression-*`
/// must be refused with a `DecodeError` by the header read and by the whole thumbnail path;
/// each `leak-*` (a leak the fuzzer's LeakSanitizer found) must read, and the sanitizer run of
/// this suite (`scripts/test --sanitize=address`, leak detection on) fails if it leaks again.
struct FuzzRegressionTests {
    static var regressions: [URL] { seeds(prefix: "regression-") }
    static var leaks: [URL] { seeds(prefix: "leak-") }

    static func seeds(prefix: String) -> [URL] {
        let seeds = TestImages.packageRoot.appendingPathComponent("Fuzz/Seeds")
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: seeds.path)) ?? []
        return targets.sorted().flatMap { target in
            let folder = seeds.appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasPrefix(prefix) }.sorted().map { folder.appendingPathComponent($0) }
        }
    }

    @Test func theRegressionSeedsAreThere() {
        // A HEIC whose primary image is 0 pixels wide, found by header-heif and decode-heif.
        #expect(Self.regressions.map(\.lastPathComponent).filter { $0 == "regression-zero-size.heic" }.count == 2)
        // HEICs whose nclx box libheif 1.15 returns with an error and an allocated profile.
        #expect(Self.leaks.map(\.lastPathComponent).filter { $0 == "leak-nclx-error.heic" }.count == 2)
    }

    @Test(arguments: Self.leaks)
    func readsWithoutLeaking(_ file: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: file))
        let header = try ImageDecoders.readHeader(bytes, path: file.path)
        #expect(header.width > 0 && header.height > 0)
    }

    @Test(arguments: Self.regressions)
    func isRefusedWithoutACrash(_ file: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: file))
        #expect(throws: DecodeError.self) { _ = try ImageDecoders.readHeader(bytes, path: file.path) }
        let variants = [
            ResizeOptions(width: 64, height: 64, mode: .fill), ResizeOptions(width: 40, height: 30, mode: .fit),
        ]
        // One thread streams rows into the resamplers; two decode whole and resample in parallel.
        for threads in [1, 2] {
            #expect(throws: DecodeError.self, "\(threads) thread(s)") {
                _ = try Thumbnailer.render(
                    bytes, path: file.path, variants: variants, decode: DecodeOptions(), threads: threads)
            }
        }
    }
}
