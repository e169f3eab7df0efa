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
