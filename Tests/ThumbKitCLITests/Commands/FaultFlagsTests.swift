// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

/// The real binary when the disk fills up (simulated through the hidden `--_disk-full-after`,
/// the same seam `scripts/fault-test` uses when it cannot mount a small tmpfs): each file that
/// could not be written gets its line, no partial or temporary file is left, and
/// `--stop-on-error` stops starting files after the first failure.
struct FaultFlagsTests {
    static func fixture(count: Int) throws -> URL {
        let dir = try TestBinary.temporaryDirectory("tk-fault-flags")
        for i in 0..<count {
            let image = PixelBuffer(width: 20, height: 20, fill: RGBA(UInt8(i * 40), 90, 200))
            try Data(ImageEncoders.encode(image, options: EncodeOptions(format: .png)))
                .write(to: dir.appendingPathComponent("img\(i).png"))
        }
        return dir
    }

    @Test(.tags(.realProcess)) func aFullDiskReportsEveryFileItCouldNotWriteAndLeavesOnlyCompleteOutputs() throws {
        let dir = try Self.fixture(count: 4)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let arguments = ["thumb", "-s", "8x8", "-j", "1", "-o", out.path + "/%s.png", dir.path]
        // A first run without the fault measures the thumbnails; then room for the first only.
        #expect(try TestBinary.run(arguments).status == 0)
        let first = try FileManager.default.attributesOfItem(atPath: out.path + "/img0.png")[.size] as? Int ?? 0
        try FileManager.default.removeItem(at: out)
        let run = try TestBinary.run(arguments + ["--_disk-full-after", String(first + 1)])
        #expect(run.status == 1)
        #expect(run.stderrLines == (1...3).map { "thumbkit: \(out.path)/img\($0).png: no space left on device" })
        #expect(run.stdout.contains("4 files: 1 succeeded, 3 failed"))
        // The one file under a final name is complete; no temporary is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["img0.png"])
        let image = try ImageDecoders.decode(try FileIO.read(out.path + "/img0.png"), path: "img0.png")
        #expect(image.buffer.width == 8)
    }

    @Test(.tags(.realProcess)) func stopOnErrorStopsStartingFilesAndSaysHowManyWereNotStarted() throws {
        let dir = try Self.fixture(count: 5)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let run = try TestBinary.run(
            [
                "thumb", "-s", "8x8", "-j", "1", "--stop-on-error", "--_disk-full-after", "0", "-o",
                out.path + "/%s.png", dir.path,
            ])
        #expect(run.status == 1)
        #expect(
            run.stderrLines == [
                "thumbkit: \(out.path)/img0.png: no space left on device",
                "thumbkit: stopped after a failure: 4 of 5 files not started",
            ])
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []) == [])
    }
}
