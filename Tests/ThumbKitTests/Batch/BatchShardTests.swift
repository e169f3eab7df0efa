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

    @Test func theSharesOfABatchAreDisjointAndMakeUpTheWholeBatch() throws {
        let root = try TestBinary.temporaryDirectory("tk-shard")
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = root.appendingPathComponent("tree")
        try Self.tree(tree, count: 60)
        let loose = root.appendingPathComponent("loose.jpg").path
        try Data().write(to: URL(fileURLWithPath: loose))
        let arguments = [tree.path, loose, "-"]
        let whole = InputCollector(recursive: true).collect(arguments)
        #expect(whole.files.count == 62 && whole.failures.isEmpty)
        for count in 1...5 {
            var seen: [String: Int] = [:]
            for index in 0..<count {
                let part = InputCollector(recursive: true, shard: BatchShard(index: index, count: count))
                    .collect(arguments)
                #expect(part.failures.isEmpty, "\(index)/\(count)")
                for file in part.files { seen[file, default: 0] += 1 }
                if count > 1 { #expect(part.files.count < whole.files.count, "\(index)/\(count)") }
            }
            #expect(seen.values.allSatisfy { $0 == 1 }, "N=\(count): a file in two shards")
            #expect(Set(seen.keys) == Set(whole.files), "N=\(count): the shards miss files")
        }
    }

    /// The same tree mounted elsewhere splits the same way: the key is the path below the
    /// argument, not the argument.
    @Test func theSplitDoesNotDependOnWhereTheTreeIs() throws {
        let first = try TestBinary.temporaryDirectory("tk-shard-a")
        let second = try TestBinary.temporaryDirectory("tk-shard-b")
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let deeper = second.appendingPathComponent("mnt/photos")
        try Self.tree(first, count: 30)
        try Self.tree(deeper, count: 30)
        for index in 0..<3 {
            let collector = InputCollector(recursive: true, shard: BatchShard(index: index, count: 3))
            let one = collector.collect([first.path]).files.map { String($0.dropFirst(first.path.count)) }
            let two = collector.collect([deeper.path]).files.map { String($0.dropFirst(deeper.path.count)) }
            #expect(one == two && !one.isEmpty)
        }
    }

    /// A folder whose images all fall in other shards is not "a folder with no images".
    @Test func aFolderWithImagesOnlyInOtherSharesIsNoFailure() throws {
        let root = try TestBinary.temporaryDirectory("tk-shard-one")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data().write(to: root.appendingPathComponent("a"))  // Not an image name: a notice.
        try Data().write(to: root.appendingPathComponent("one.jpg"))
        let results = (0..<2).map { InputCollector(shard: BatchShard(index: $0, count: 2)).collect([root.path]) }
        #expect(results.map(\.files.count).reduce(0, +) == 1)
        #expect(results.allSatisfy { $0.failures.isEmpty })
    }
}
