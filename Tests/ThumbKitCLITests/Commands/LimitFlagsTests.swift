// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumbkit thumb`'s limit flags: each refuses the file over it with one
/// `thumbkit: <path>: <reason>` line, the other files go through, and the exit status is 1.
struct LimitFlagsTests {
    struct Row: Sendable, CustomStringConvertible {
        let description: String
        let flags: [String]
        /// The reason printed for `big.png` (64 × 48, a few hundred bytes).
        let reason: String
    }

    static let rows = [
        Row(
            description: "pixels", flags: ["--max-pixels", "3000"],
            reason: "64x48 exceeds the pixel limit of 3000 pixels"),
        Row(
            description: "width or height", flags: ["--max-dimension", "50"],
            reason: "64x48 exceeds the dimension limit of 50 pixels a side"),
        Row(description: "file bytes", flags: ["--max-file-bytes", "200"], reason: "over the limit of 200 bytes"),
        Row(
            description: "time", flags: ["--timeout", "0.000000001"],
            reason: "took longer than the time limit of 1e-09 s"),
    ]

    /// A folder with `big.png` (64 × 48, noisy so it is over 200 bytes) and, except for the
    /// time limit which every file hits, `small.png` (8 × 8, under every other limit).
    static func fixture() throws -> URL {
        let dir = try TestBinary.temporaryDirectory("tk-limit-flags")
        var big = PixelBuffer(width: 64, height: 48)
        for y in 0..<48 { for x in 0..<64 { big[x, y] = RGBA(UInt8((x * 37 + y * 11) % 256), UInt8(x * y % 256), 7) } }
        try Data(ImageEncoders.encode(big, options: EncodeOptions(format: .png))).write(
            to: dir.appendingPathComponent("big.png"))
        let small = PixelBuffer(width: 8, height: 8, fill: RGBA(1, 2, 3))
        try Data(ImageEncoders.encode(small, options: EncodeOptions(format: .png)))
            .write(to: dir.appendingPathComponent("small.png"))
        return dir
    }

    @Test(arguments: rows)
    func eachLimitFlagFailsTheFileOverItAndTheBatchGoesOn(_ row: Row) async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let inputs = [dir.path + "/big.png", dir.path + "/small.png"]
        let r = await ThumbCommandTests.run(["thumb", "-s", "4x4", "-o", out.path + "/%s.png"] + row.flags + inputs)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let bigLine = lines.first { $0.hasPrefix("thumbkit: \(dir.path)/big.png: ") }
        #expect(bigLine?.hasSuffix(row.reason) == true, "\(lines)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(written == (row.description == "time" ? [] : ["small.png"]))
    }

    @Test(arguments: [
        ["--timeout", "-1"], ["--timeout", "soon"], ["--max-pixels", "0"], ["--max-file-bytes", "-5"],
    ])
    func aNegativeOrNonNumericLimitIsAUsageError(_ flags: [String]) async {
        let r = await ThumbCommandTests.run(["thumb"] + flags + ["x.png"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("thumbkit: error: "))
    }

    @Test func aZeroTimeoutMeansNoTimeLimit() async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let r = await ThumbCommandTests.run([
            "thumb", "-s", "4x4", "--timeout", "0", "-o", out.path + "/%s.png", dir.path,
        ])
        #expect(r.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["big.png", "small.png"])
    }
}
