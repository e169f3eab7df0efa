// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// The batch under faults: a disk that fills up, inputs that cannot be read or vanish, an
/// output folder that cannot be written, writers killed part-way. Each is a clear
/// `<path>: <reason>` for the file concerned, no partial output is ever left under a final
/// name, sources are never touched, and the other files go through.
struct FaultTests {
    /// A fresh folder with `names` as small real images (PNG or JPEG by extension).
    static func folder(_ names: [String]) throws -> URL {
        let dir = try TestBinary.temporaryDirectory("tk-fault")
        for name in names {
            let format: ImageFormat = name.hasSuffix(".png") ? .png : .jpeg
            try Data(LimitTests.encoded(format, width: 40, height: 30)).write(to: dir.appendingPathComponent(name))
        }
        return dir
    }

    static func runner(
        _ out: URL, scales: [Int] = [1], jobs: Int = 1, stopOnError: Bool = false,
        faults: any FileWriteFaults = NoWriteFaults()
    ) -> BatchRunner {
        var runner = BatchRunner(
            request: ThumbnailRequest(resize: ResizeOptions(width: 16, height: 16), scales: scales),
            encoding: EncodeOptions(format: .png), template: OutputTemplate(out.path + "/%s.png"), jobs: jobs,
            stopOnError: stopOnError)
        runner.writeFaults = faults
        return runner
    }

    static func listing(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    // MARK: - Disk full

    @Test func aFullDiskFailsTheFileItCouldNotWriteAndLeavesNothingPartial() throws {
        let dir = try Self.folder(["a.png", "b.jpg", "c.png"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        // Room for a's @1x and @2x and b's @1x, but not b's @2x: b must lose its @1x again.
        let probe = Self.runner(dir.appendingPathComponent("probe"), scales: [1, 2])
            .run([dir.path + "/a.png", dir.path + "/b.jpg"])
        let room = probe.items[0].outputs.reduce(0) { $0 + $1.bytes } + probe.items[1].outputs[0].bytes + 10
        let disk = SimulatedDiskFull(afterBytes: room)

        let files = ["a.png", "b.jpg", "c.png"].map { dir.path + "/" + $0 }
        let report = Self.runner(out, scales: [1, 2], faults: disk).run(files)
        #expect(report.items.map(\.succeeded) == [true, false, false])
        #expect(report.items[1].error?.hasSuffix(": no space left on device") == true)
        #expect(report.items[1].error?.hasPrefix(out.path + "/b@2x.png: ") == true)
        // Exactly a's outputs: none of b's (its @1x was removed when @2x failed), no temporaries.
        #expect(Self.listing(out) == ["a.png", "a@2x.png"])
        for name in Self.listing(out) {
            let image = try ImageDecoders.decode(try FileIO.read(out.path + "/" + name), path: name)
            #expect(image.buffer.width >= 16)
        }
        #expect(Self.listing(dir) == ["a.png", "b.jpg", "c.png", "out", "probe"])  // sources untouched
        #expect(disk.bytesLeft == 0)  // b@2x's write used up what was left, c's found none
    }

    @Test func stopOnErrorStartsNoNewFileAfterTheDiskFills() throws {
        let dir = try Self.folder(["a.png", "b.png", "c.png", "d.png"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let files = ["a.png", "b.png", "c.png", "d.png"].map { dir.path + "/" + $0 }
        let report = Self.runner(out, stopOnError: true, faults: SimulatedDiskFull(afterBytes: 0)).run(files)
        #expect(report.files == 1 && report.failed == 1 && report.exitCode == 1)
        #expect(report.items[0].input == files[0])
        #expect(Self.listing(out) == [])
    }

    @Test func aSimulatedFullDiskGrantsExactlyItsBudgetThenFails() {
        let disk = SimulatedDiskFull(afterBytes: 100)
        let other = SimulatedDiskFull(afterBytes: 100)
        #expect(disk.allowance(60, path: "/a/x") == 60)
        #expect(disk.allowance(60, path: "/b/y") == 40)
        #expect(disk.allowance(60, path: "/a/z") == 0)
        #expect(other.allowance(60, path: "/a/x") == 60)  // each disk has its own budget
        #expect(NoWriteFaults().allowance(1 << 40, path: "/a/x") == 1 << 40)
        #expect(SimulatedDiskFull(afterBytes: -5).allowance(1, path: "/a/x") == 0)
    }

    @Test func aWriteThatOnlyPartlyFitsLeavesNothingAndSaysNoSpace() throws {
        let dir = try TestBinary.temporaryDirectory("tk-fault")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.path + "/t.bin"
        let error = #expect(throws: EncodeError.self) {
            try FileIO.writeAtomically(
                [UInt8](repeating: 7, count: 100), to: target, faults: SimulatedDiskFull(afterBytes: 60))
        }
        #expect(error == .write(path: target, reason: "no space left on device"))
        #expect(Self.listing(dir) == [])
        try FileIO.writeAtomically([1, 2, 3], to: target, faults: SimulatedDiskFull(afterBytes: 3))
        #expect(try FileIO.read(target) == [1, 2, 3])
    }

    // MARK: - Unreadable inputs

    @Test func anInputWithoutReadPermissionIsUnreadable() throws {
        let dir = try Self.folder(["secret.png"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/secret.png"
        #expect(chmod(dir.path, 0o755) == 0 && chmod(path, 0o000) == 0)
        let error = #expect(throws: DecodeError.self) { try Unprivileged.run { try FileIO.read(path) } }
        #expect(error == .unreadable(path: path, reason: "permission denied"))
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let dir = try TestBinary.temporaryDirectory("tk-fault")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/pipe.jpg"
        #expect(mkfifo(path, 0o644) == 0)
        // A blocking open would wait here forever for a writer.
        let error = #expect(throws: DecodeError.self) { try FileIO.read(path) }
        #expect(error == .unreadable(path: path, reason: "not a regular file"))
    }

    @Test func aFolderNamedLikeAnImageIsUnreadable() throws {
        let dir = try TestBinary.temporaryDirectory("tk-fault")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/album.jpg"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = #expect(throws: DecodeError.self) { try FileIO.read(path) }
        #expect(error == .unreadable(path: path, reason: "is a directory"))
    }

    @Test func anInputDeletedAfterListingFailsAloneAndTheBatchGoesOn() throws {
        let dir = try Self.folder(["a.png", "b.jpg", "c.png"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let listed = InputCollector().collect([dir.path])
        #expect(listed.files.count == 3)
        try FileManager.default.removeItem(atPath: dir.path + "/b.jpg")
        let out = dir.appendingPathComponent("out")
        let report = Self.runner(out, jobs: 2).run(listed.files)
        #expect(report.items.map(\.error) == [nil, "\(dir.path)/b.jpg: no such file or directory", nil])
        #expect(Self.listing(out) == ["a.png", "c.png"])
    }

    // MARK: - Output folder not writable

    @Test func anOutputFolderWithoutWritePermissionFailsTheWriteAndLeavesNoTemporary() throws {
        let dir = try TestBinary.temporaryDirectory("tk-fault")
        defer {
            _ = chmod(dir.path + "/locked", 0o755)
            try? FileManager.default.removeItem(at: dir)
        }
        let locked = dir.path + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        #expect(chmod(dir.path, 0o755) == 0 && chmod(locked, 0o555) == 0)
        let error = #expect(throws: EncodeError.self) {
            try Unprivileged.run { try FileIO.writeAtomically([1, 2, 3], to: locked + "/t.png") }
        }
        #expect(error == .write(path: locked + "/t.png", reason: "permission denied"))
        #expect(Self.listing(URL(fileURLWithPath: locked)) == [])
    }

    @Test func anOutputFolderThatIsAFileFailsEveryOutputButNoSource() throws {
        let dir = try Self.folder(["a.png", "b.jpg"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let blocker = dir.appendingPathComponent("out")
        try Data("not a folder".utf8).write(to: blocker)
        let report = Self.runner(blocker.appendingPathComponent("thumbs")).run([
            dir.path + "/a.png", dir.path + "/b.jpg",
        ])
        #expect(report.failed == 2)
        for (item, name) in zip(report.items, ["a", "b"]) {
            #expect(item.error?.hasPrefix("\(blocker.path)/thumbs/\(name).png: cannot create folder") == true)
        }
        #expect(Self.listing(dir) == ["a.png", "b.jpg", "out"])
        #expect(try String(contentsOf: blocker, encoding: .utf8) == "not a folder")
    }

    // MARK: - Writers killed part-way

    @Test func staleTemporariesOfDeadWritersAreRemovedAndNothingElse() throws {
        let dir = try TestBinary.temporaryDirectory("tk-fault")
        defer { try? FileManager.default.removeItem(at: dir) }
        // pid_t's maximum is far above the kernel's pid_max (at most 2^22): no such process.
        let dead = ".a.jpg.tmp-2147483646-17"
        let live = ".b.jpg.tmp-1-17"  // pid 1 always exists
        let mine = ".c.jpg.tmp-\(getpid())-17"  // this process may still be writing it
        let deadHere = ".e.jpg.tmp-\(TemporaryFileName.localHost)-2147483646-2"
        // The same dead pid on another host (shared storage): its writer cannot be probed here.
        let elsewhere = ".f.jpg.tmp-\(TemporaryFileNameTests.otherHost)-2147483646-2"
        for name in [dead, deadHere, elsewhere, live, mine, "a.jpg", ".hidden", "x.tmp-5-5"] {
            try Data([1]).write(to: dir.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            atPath: dir.path + "/.d.jpg.tmp-2147483646-1", withIntermediateDirectories: false)
        #expect(Set(FileIO.removeStaleTemporaries(in: dir.path)) == [dir.path + "/" + dead, dir.path + "/" + deadHere])
        #expect(
            Self.listing(dir)
                == [live, elsewhere, ".d.jpg.tmp-2147483646-1", ".hidden", mine, "a.jpg", "x.tmp-5-5"].sorted())
    }

    @Test func aBatchClearsTheTemporariesAKilledRunLeftInItsOutputFolder() throws {
        let dir = try Self.folder(["a.png"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data([0x89, 0x50]).write(to: out.appendingPathComponent(".a.png.tmp-2147483646-3"))
        let report = Self.runner(out).run([dir.path + "/a.png"])
        #expect(report.failed == 0)
        #expect(Self.listing(out) == ["a.png"])
    }
}
