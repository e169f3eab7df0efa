// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// The real `thumbkit` binary killed with SIGKILL in the middle of a build.
struct BuildKillTests {
    /// The `thumbkit` built next to this test bundle (`swift test` builds it too).
    static func binary() -> String? {
        let path = TestBinary.thumbkit.path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Output files a build wrote (not hidden, not `Contents.json`).
    static func builtFiles(_ out: String) -> Set<String> {
        var files: Set<String> = []
        let walker = FileManager.default.enumerator(atPath: out)
        while let item = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: out + "/" + item, isDirectory: &isFolder), !isFolder.boolValue,
                !(item as NSString).lastPathComponent.hasPrefix("."),
                !item.hasSuffix("Contents.json")
            {
                files.insert(item)
            }
        }
        return files
    }

    /// Every output row's file exists with its size, no key twice, the database is sound, and
    /// (`afterBuild`) no temporary file is left.
    static func problems(_ store: CatalogStore, _ out: String, afterBuild: Bool) throws -> [String] {
        var problems: [String] = []
        let rows = try store.read { try $0.outputs() }
        if Set(rows.map(\.values.key)).count != rows.count { problems.append("duplicate keys") }
        for row in rows {
            let size = (try? FileManager.default.attributesOfItem(atPath: out + "/" + row.path))?[.size] as? Int
            if size != row.bytes {
                problems.append("\(row.path): \(size.map(String.init) ?? "missing"), row says \(row.bytes)")
            }
        }
        let walker = FileManager.default.enumerator(atPath: out)
        while let item = walker?.nextObject() as? String {
            if afterBuild, item.contains(".tmp-") { problems.append("\(item): temporary file left") }
        }
        return problems + (try store.quickCheck())
    }

    @Test(.tags(.realProcess, .kill)) func aBuildKilledHalfWayLeavesTheCatalogConsistentAndARerunCompletesIt() throws {
        guard let binary = Self.binary() else {
            Issue.record("no thumbkit binary next to \(CommandLine.arguments[0]); run 'swift build' first")
            return
        }
        // Given 100 bugs with their own pictures, rating icons, one small recipe (so the test is
        // quick) and a one-worker build.
        let workspace = try CLIWorkspace()
        let store = try CatalogStore(path: workspace.path("c.sqlite"))
        let count = 100
        let recipes = try workspace.write(
            "recipes.json",
            #"{"replaceDefaults": true, "recipes": [{"name": "bug-list", "record": "bug", "kind": "list", "size": "24x24", "scales": [1, 2, 3]}]}"#
        )
        let empty = try workspace.image("icons/empty.png", side: 16, seed: 1)
        let full = try workspace.image("icons/full.png", side: 16, seed: 2)
        var pictures: [String] = []
        for index in 0..<count { pictures.append(try workspace.image("img/\(index).png", side: 64, seed: index)) }
        try store.write { tx in
            for (index, picture) in pictures.enumerated() {
                try tx.addBug(
                    title: "Bug \(index)", rating: Rating.all[index % 11], image: try ImageRef.load(path: picture))
            }
            try tx.setAssets(CatalogAssets(ratingEmpty: empty, ratingFull: full))
        }
        let out = workspace.path("out")
        let arguments = [
            "build", "--catalog", workspace.path("c.sqlite"), "--out", out, "--recipes", recipes, "--json",
        ]
        let expectedRows = count * (3 + 3) + 33

        // When the build is killed once some bug outputs exist…
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["-j", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // (The files are the event: another process writes them, so they are looked at every ms.)
        let started = pollUntil(timeout: 120, every: 0.001) {
            !process.isRunning || Self.builtFiles(out + "/bugs").count >= 12
        }
        #expect(started, "no 12 bug outputs within 120 s")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)

        // …every row it committed describes a complete file (a temporary file may be left), and
        // it did not finish.
        let afterKill = try Self.problems(store, out, afterBuild: false)
        #expect(afterKill == [], "\(afterKill)")
        let rowsAfterKill = try store.read { try $0.outputs() }.count
        #expect(rowsAfterKill < expectedRows, "the build finished before it could be killed")

        // Then a rerun completes it: every output once, every file on disk described by a row.
        let rerun = Process()
        rerun.executableURL = URL(fileURLWithPath: binary)
        rerun.arguments = arguments
        let pipe = Pipe()
        rerun.standardOutput = pipe
        rerun.standardError = FileHandle.nullDevice
        try rerun.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        rerun.waitUntilExit()
        #expect(rerun.terminationStatus == 0)
        let report = try JSONDecoder().decode(BuildReport.self, from: output)
        #expect(report.failed == 0 && report.made + report.upToDate == expectedRows)
        #expect(report.upToDate == rowsAfterKill)
        let rows = try store.read { try $0.outputs() }
        #expect(rows.count == expectedRows)
        let afterRerun = try Self.problems(store, out, afterBuild: true)
        #expect(afterRerun == [], "\(afterRerun)")
        #expect(Self.builtFiles(out) == Set(rows.map(\.path)))
    }
}
