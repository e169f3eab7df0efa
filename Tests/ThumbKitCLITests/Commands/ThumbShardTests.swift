// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumbkit thumb --shard K/N` end to end (issue "Scale-out", 4).
struct ThumbShardTests {
    /// `count` small PNGs in nested folders below `root`.
    static func tree(_ root: URL, count: Int) throws {
        for index in 0..<count {
            let folder = root.appendingPathComponent(["", "a", "a/b"][index % 3])
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let image = PixelBuffer(width: 8, height: 8, fill: RGBA(UInt8(index * 9 % 256), 40, 90))
            try Data(ImageEncoders.encode(image, options: EncodeOptions(format: .png)))
                .write(to: folder.appendingPathComponent("p\(index).png"))
        }
    }

    /// Every regular file below `root`, relative.
    static func outputs(_ root: URL) -> Set<String> {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: Set<String> = []
        while let item = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.path + "/" + item, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                files.insert(item)
            }
        }
        return files
    }

    @Test func threeShardsWriteDisjointOutputsThatMakeUpTheUnshardedRun() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-thumb-shard")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try Self.tree(photos, count: 20)
        let whole = dir.appendingPathComponent("whole")
        let all = await ThumbCommandTests.run([
            "thumb", "-r", "-s", "4x4", "-o", whole.path + "/%d/%s.png", photos.path,
        ])
        #expect(all.status == 0, "\(all.stderr)")
        let expected = Self.outputs(whole)
        #expect(expected.count == 20)
        var union: [String: Int] = [:]
        for index in 0..<3 {
            let out = dir.appendingPathComponent("shard\(index)")
            let run = await ThumbCommandTests.run([
                "thumb", "-r", "--shard", "\(index)/3", "-s", "4x4", "-o", out.path + "/%d/%s.png", photos.path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let made = Self.outputs(out)
            #expect(made.count < expected.count)
            for file in made { union[file, default: 0] += 1 }
        }
        #expect(Set(union.keys) == expected)
        #expect(union.values.allSatisfy { $0 == 1 })
    }

    @Test func inputsWithOneOutputLandInOneShardAndAreRefusedThereAsUnsharded() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-thumb-shard-collide")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try Self.tree(photos, count: 6)
        // A stem whose .jpg and .png input paths hash to different thirds: split by input, each
        // of two shards would write its own x.png, one over the other. (Not halves: FNV-1a's
        // lowest bit is the parity of the bytes' lowest bits, the same for "jpg" and "png".)
        let stem = try #require(
            (0..<100).map { "x\($0)" }.first {
                BatchShard.fnv1a64(Array("\($0).jpg".utf8)) % 3 != BatchShard.fnv1a64(Array("\($0).png".utf8)) % 3
            })
        try Data(GeneratedImages.jpeg(seed: 30)).write(to: photos.appendingPathComponent(stem + ".jpg"))
        try Data(GeneratedImages.png(seed: 31)).write(to: photos.appendingPathComponent(stem + ".png"))
        let whole = dir.appendingPathComponent("whole")
        let all = await ThumbCommandTests.run([
            "thumb", "-r", "-s", "4x4", "-o", whole.path + "/%d/%s.png", photos.path,
        ])
        #expect(all.status == 1)
        let refusal = "\(photos.path)/\(stem).png: output \(whole.path)/\(stem).png would overwrite the thumbnail of"
        #expect(all.stderr.contains(refusal), "\(all.stderr)")
        var failed: [String] = []
        var union: [String: Int] = [:]
        for index in 0..<3 {
            let out = dir.appendingPathComponent("shard\(index)")
            let run = await ThumbCommandTests.run([
                "thumb", "-r", "--shard", "\(index)/3", "-s", "4x4", "-o", out.path + "/%d/%s.png", photos.path,
            ])
            let lines = run.stderr.split(separator: "\n").filter { $0.contains("would overwrite") }
            #expect(run.status == (lines.isEmpty ? 0 : 1), "\(run.stderr)")
            failed += lines.map { $0.replacingOccurrences(of: out.path, with: whole.path) }
            for file in Self.outputs(out) { union[file, default: 0] += 1 }
        }
        #expect(failed.count == 1 && all.stderr.contains(failed[0]), "\(failed)")
        #expect(Set(union.keys) == Self.outputs(whole))
        #expect(union.values.allSatisfy { $0 == 1 })
    }

    @Test(arguments: ["3/3", "0/0", "-1/3", "x/3", "1", "1/3/4", ""])
    func aBadShardIsAUsageErrorOnOneLine(value: String) async throws {
        let dir = try TestBinary.temporaryDirectory("tk-thumb-shard-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.tree(dir, count: 1)
        let run = await ThumbCommandTests.run(["thumb", "--shard=\(value)", "-o", dir.path + "/out/%s.png", dir.path])
        #expect(run.status == 2)
        // One error line, then the usage hint every usage error gets.
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("thumbkit: error:") }.count == 1, "\(run.stderr)")
        #expect(lines.first?.hasPrefix("thumbkit: error: invalid --shard '\(value)': expected K/N") == true)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("USAGE: ") || $0.hasPrefix("See ") }, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/out"))
    }
}
