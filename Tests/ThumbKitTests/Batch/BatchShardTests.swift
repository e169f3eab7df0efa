// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// `thumb --shard K/N`: N workers split one batch by a stable hash of each input's path below
/// its argument (issue "Scale-out", 4).
struct BatchShardTests {
    /// FNV-1a 64 reference values (the first three from the FNV authors' test suite): the split
    /// must never change between releases, or a re-run job would redo or skip files.
    @Test(arguments: [
        ("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
        ("photos/a.jpg", 0xd86b_cdad_0c13_ab99), ("a/b/c.png", 0x358d_8a55_6d59_156a),
    ])
    func theHashIsFNV1a64(key: String, hash: UInt64) {
        #expect(BatchShard.fnv1a64(Array(key.utf8)) == hash)
    }

    @Test func membershipIsPinned() throws {
        let quarter = try #require(BatchShard(index: 1, count: 4))
        #expect(quarter.contains(key: "photos/a.jpg"))  // 0xd86b…ab99 % 4 == 1
        #expect(!quarter.contains(key: "a/b/c.png"))  // % 4 == 2
        #expect(try #require(BatchShard(index: 2, count: 4)).contains(key: "a/b/c.png"))
    }

    @Test(arguments: [("0/1", 0, 1), ("3/4", 3, 4), ("0/5", 0, 5), ("007/010", 7, 10)])
    func goodValuesParse(text: String, index: Int, count: Int) {
        #expect(BatchShard(parsing: text) == BatchShard(index: index, count: count))
        #expect(BatchShard(parsing: text) != nil)
    }

    @Test(arguments: [
        "", "4/4", "5/4", "0/0", "1/0", "-1/4", "1/-4", "+1/4", "a/4", "1/b", "1", "/4", "1/", "1/2/3", " 1/4",
        "1/4 ", "1.0/4", "99999999999999999999/100000000000000000000", "١/٤",
    ])
    func badValuesAreRefused(text: String) {
        #expect(BatchShard(parsing: text) == nil, "\(text)")
    }

    /// A tree of `count` image-named files in nested folders below `root`.
    static func tree(_ root: URL, count: Int) throws {
        for index in 0..<count {
            let folder = root.appendingPathComponent(["", "a", "a/b", "c"][index % 4])
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data().write(to: folder.appendingPathComponent("img\(index).\(index % 3 == 0 ? "png" : "jpg")"))
        }
    }

    /// The plan of `files` for outputs under `template`.
    static func plan(_ collected: InputCollector.Result, template: String) -> BatchPlan {
        let runner = BatchRunner(
            request: ThumbnailRequest(resize: ResizeOptions(width: 8, height: 8, mode: .fill)),
            encoding: EncodeOptions(format: .jpeg), template: OutputTemplate(template), jobs: 1)
        return runner.plan(collected.files, subfolders: collected.subfolders)
    }

    @Test func theSharesOfABatchAreDisjointAndMakeUpTheWholeBatch() throws {
        let root = try TestBinary.temporaryDirectory("tk-shard")
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = root.appendingPathComponent("tree")
        try Self.tree(tree, count: 60)
        let loose = root.appendingPathComponent("loose.jpg").path
        try Data().write(to: URL(fileURLWithPath: loose))
        let whole = InputCollector(recursive: true).collect([tree.path, loose, "-"])
        #expect(whole.files.count == 62 && whole.failures.isEmpty)
        let plan = Self.plan(whole, template: root.path + "/out/%d/%s.jpg")
        #expect(plan.entries.map(\.file) == whole.files)
        for count in 1...5 {
            var seen: [String: Int] = [:]
            for index in 0..<count {
                let part = plan.sharded(try #require(BatchShard(index: index, count: count)))
                for entry in part.entries { seen[entry.file, default: 0] += 1 }
                if count > 1 { #expect(part.entries.count < whole.files.count, "\(index)/\(count)") }
            }
            #expect(seen.values.allSatisfy { $0 == 1 }, "N=\(count): a file in two shards")
            #expect(Set(seen.keys) == Set(whole.files), "N=\(count): the shards miss files")
        }
    }

    /// The same trees mounted elsewhere split the same way: the key is the output's path below
    /// the template's output folder, not where the inputs or the outputs are.
    @Test func theSplitDoesNotDependOnWhereTheTreesAre() throws {
        let first = try TestBinary.temporaryDirectory("tk-shard-a")
        let second = try TestBinary.temporaryDirectory("tk-shard-b")
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let deeper = second.appendingPathComponent("mnt/photos")
        try Self.tree(first, count: 30)
        try Self.tree(deeper, count: 30)
        let planOne = Self.plan(InputCollector(recursive: true).collect([first.path]), template: "/o/%d/%s.jpg")
        let planTwo = Self.plan(
            InputCollector(recursive: true).collect([deeper.path]), template: second.path + "/mnt/out/%d/%s.jpg")
        for index in 0..<3 {
            let shard = try #require(BatchShard(index: index, count: 3))
            let one = planOne.sharded(shard).entries.map { String($0.file.dropFirst(first.path.count)) }
            let two = planTwo.sharded(shard).entries.map { String($0.file.dropFirst(deeper.path.count)) }
            #expect(one == two && !one.isEmpty)
        }
    }
}
