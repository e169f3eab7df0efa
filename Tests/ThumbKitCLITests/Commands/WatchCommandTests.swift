// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCLI
@testable import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end runs of the real `thumbkit watch` binary on temporary inboxes, with the catalog on
/// either backend.
struct WatchCommandTests {
    @Test(.tags(.realProcess), arguments: CatalogBackend.all)
    func fiftyDroppedFilesBecomeRecordsDuplicatesAreSkippedAndBadOnesRejected(backend: CatalogBackend) throws {
        let site = try WatchSite(small: true, backend: backend)
        let watcher = try site.start(["--settle", "0.2", "-j", "2", "--recipes", "recipes.json"])
        try #require(watcher.waitUntilWatching(), "no 'watching' line: \(watcher.stderr)")
        var good: [String] = []

        let shown = { (path: String) in "inbox/" + path }

        // 5 written slowly, in three chunks, open all along. After each chunk a marker file is
        // dropped whole and waited for until it is ingested: the watcher has then taken a file
        // that settled (0.2 s) after the chunk was written, so it would have taken the open ones
        // too if it did not wait for their close. It has not touched them.
        let slow = (1...5).map { "bugs/Slow \($0).jpg" }
        // open/write/close, as a slow copy does: no close (and so no event) until the end.
        let files = slow.enumerated().map { index, path in
            let fd = open(site.inbox + "/" + path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            return (fd, GeneratedImages.jpeg(seed: 300 + index))
        }
        for part in 0..<3 {
            for (fd, bytes) in files {
                let size = (bytes.count + 2) / 3
                let chunk = Array(bytes[min(bytes.count, part * size)..<min(bytes.count, (part + 1) * size)])
                _ = write(fd, chunk, chunk.count)
            }
            let marker = "bugs/Marker \(part).jpg"
            try site.drop(marker, GeneratedImages.jpeg(seed: 500 + part))
            good.append(marker)
            try #require(watcher.wait { $0.paths(.ingested).contains(shown(marker)) }, "\(watcher.stderr)")
            let touched = watcher.paths(.ingested).union(watcher.paths(.rejected))
            #expect(touched.isDisjoint(with: slow.map(shown)), "an open file was taken: \(watcher.stderr)")
        }
        for (fd, _) in files { close(fd) }
        good += slow

        // 20 written at once.
        for index in 1...20 {
            let path = index <= 12 ? "bugs/Plain \(index).jpg" : "foods/Soup/Plain \(index).png"
            try site.drop(path, index <= 12 ? GeneratedImages.jpeg(seed: index) : GeneratedImages.png(seed: index))
            good.append(path)
        }
        // 10 renamed in from temporary names.
        for index in 1...10 {
            let path = index <= 5 ? "bugs/Renamed \(index).jpg" : "foods/Pasta/Renamed \(index).jpg"
            let temp = index % 2 == 0 ? path + ".part" : (path as NSString).deletingLastPathComponent + "/.tmp-\(index)"
            try site.drop(temp, GeneratedImages.jpeg(seed: 100 + index))
            try #require(rename(site.inbox + "/" + temp, site.inbox + "/" + path) == 0)
            good.append(path)
        }
        // 5 in a category folder created after the watcher started, written at once.
        for index in 1...5 {
            let path = "foods/Drinks/Drink \(index).jpg"
            try site.drop(path, GeneratedImages.jpeg(seed: 200 + index))
            good.append(path)
        }
        // 5 corrupt.
        let bad: [(String, [UInt8])] = [
            ("bugs/Text.jpg", Array("not an image at all".utf8)),
            ("bugs/Empty.png", []),
            ("bugs/Cut.jpg", Array(GeneratedImages.jpeg(seed: 400).prefix(300))),
            ("foods/Soup/Signature.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            ("foods/Soup/Noise.jpeg", [0xFF, 0xD8] + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 97) }),
        ]
        for (path, bytes) in bad { try site.drop(path, bytes) }

        #expect(watcher.wait { w in Set(good.map(shown)).isSubset(of: w.paths(.ingested)) }, "\(watcher.stderr)")
        // 5 duplicates: the same bytes again, under the same record, once the first is in.
        let duplicates = (1...5).map { "bugs/Plain \($0).jpeg" }
        for (index, path) in duplicates.enumerated() { try site.drop(path, GeneratedImages.jpeg(seed: index + 1)) }
        let ends: (WatchProcess) -> Bool = { w in
            Set(duplicates.map(shown)).isSubset(of: w.paths(.skipped))
                && Set(bad.map { shown($0.0) }).isSubset(of: w.paths(.rejected))
        }
        #expect(watcher.wait(until: ends), "\(watcher.stderr)")

        watcher.send(SIGTERM)
        #expect(watcher.exitStatus() == 0)
        #expect(!watcher.wasKilledBySignal)
        #expect(
            watcher.paths(.rejected).isDisjoint(with: good.map(shown)), "a good file was rejected: \(watcher.stderr)")
        #expect(watcher.events.last?.event == .stopped)

        let view = try site.view()
        #expect(view.problems.isEmpty, "\(view.problems)")
        #expect(view.records.count == good.count)
        #expect(view.records.values.allSatisfy { !$0.outputs.isEmpty })
        #expect(view.categories == ["Drinks", "Pasta", "Soup"])
        #expect(view.rejected == bad.map { ($0.0 as NSString).lastPathComponent }.sorted())
        #expect(view.statusCounts == ["imported": 43, "skipped": 5, "failed": 5])
        for (path, _) in bad {
            let name = (path as NSString).lastPathComponent
            let note = try String(contentsOfFile: site.inbox + "/.rejected/\(name).error.txt", encoding: .utf8)
            #expect(note.hasPrefix("\(path): "), "\(note)")
        }
    }

    @Test(
        .tags(.realProcess, .kill),
        arguments: CatalogBackend.all, [("committed", 4, false), ("built", 6, false), ("moved", 3, true)])
    func aWatcherKilledMidIngestEndsLikeAnUninterruptedRunAfterARestart(
        backend: CatalogBackend, killAt: (String, Int, Bool)
    ) throws {
        let (phase, count, moveDone) = killAt
        let options =
            ["--settle", "0", "-j", "1", "--recipes", "recipes.json"] + (moveDone ? ["--move-done", "done"] : [])
        let reference = try WatchSite(small: true, backend: backend)
        try reference.dropCrashBatch()
        let uninterrupted = try reference.start(options + ["--once"])
        #expect(uninterrupted.exitStatus() == 1)  // Two files are rejected.

        let site = try WatchSite(small: true, backend: backend)
        try site.dropCrashBatch()
        let crashed = try site.start(options + ["--once", "--_crash-at", "\(phase):\(count)"])
        #expect(crashed.exitStatus() == SIGKILL)
        #expect(crashed.wasKilledBySignal)
        let restarted = try site.start(options + ["--once"])
        #expect([0, 1].contains(restarted.exitStatus()), "\(restarted.stderr)")

        let expected = try reference.view()
        let actual = try site.view()
        #expect(expected.problems.isEmpty, "\(expected.problems)")
        #expect(actual.problems.isEmpty, "\(actual.problems)")
        #expect(actual.hiddenLeftovers.isEmpty, "\(actual.hiddenLeftovers)")
        #expect(actual == expected)
    }

    @Test(.tags(.realProcess, .kill), arguments: CatalogBackend.all)
    func aWatcherKilledFromOutsideMidBatchEndsLikeAnUninterruptedRunAfterARestart(backend: CatalogBackend) throws {
        let reference = try WatchSite(backend: backend)
        try reference.dropCrashBatch()
        // Every default recipe for 29 files: past the usual 30 s on a busy machine running both
        // backends' cases at once.
        let once = 180.0
        #expect(try reference.start(["--settle", "0", "--once"]).exitStatus(timeout: once) == 1)

        let site = try WatchSite(backend: backend)
        try site.dropCrashBatch()
        let watcher = try site.start(["--settle", "0", "-j", "2"])
        #expect(watcher.wait { !$0.paths(.ingested).isEmpty }, "\(watcher.stderr)")
        watcher.send(SIGKILL)
        #expect(watcher.exitStatus() == SIGKILL)
        #expect(try site.start(["--settle", "0", "--once"]).exitStatus(timeout: once) != nil)

        let actual = try site.view()
        #expect(actual.problems.isEmpty, "\(actual.problems)")
        #expect(actual == (try reference.view()))
    }

    @Test(.tags(.realProcess), arguments: CatalogBackend.all)
    func sigtermFinishesTheFilesInFlightAndExitsZero(backend: CatalogBackend) throws {
        let site = try WatchSite(backend: backend)
        for index in 1...8 { try site.drop("bugs/Bug \(index).jpg", GeneratedImages.jpeg(seed: index)) }
        let watcher = try site.start(["--settle", "0", "-j", "2"])
        #expect(watcher.wait { !$0.paths(.ingested).isEmpty })
        watcher.send(SIGTERM)
        #expect(watcher.exitStatus() == 0)
        let kinds = watcher.events.map(\.event)
        #expect(kinds.contains(.stopping))
        #expect(kinds.last == .stopped)
        let view = try site.view()
        #expect(view.problems.isEmpty, "\(view.problems)")
        #expect(view.pending == 0)
        #expect(view.records.count == watcher.paths(.ingested).count)
        let summary = try JSONDecoder().decode(WatchSession.Summary.self, from: Data(watcher.stdout.utf8))
        #expect(summary.ingested == view.records.count)
    }

    /// The lock is the inbox's (a file in it), whatever the catalog: also with a URL for one.
    @Test(.tags(.realProcess, .kill), arguments: CatalogBackend.all)
    func aSecondWatcherIsRefusedAndAKilledOnesLockIsTakenOver(backend: CatalogBackend) throws {
        let site = try WatchSite(backend: backend)
        let first = try site.start([])
        try #require(first.waitUntilWatching(), "\(first.stderr)")
        let second = try site.start([])
        #expect(second.exitStatus() == 1)
        #expect(second.stderr.contains("already watching"))
        #expect(second.stderr.contains("pid \(first.pid)"))

        first.send(SIGKILL)
        #expect(first.exitStatus() == SIGKILL)
        let third = try site.start([])
        #expect(third.waitUntilWatching(), "\(third.stderr)")
        third.send(SIGINT)
        #expect(third.exitStatus() == 0)
    }

    @Test func aMissingInboxFailsWithOneClearLine() async throws {
        let site = try WatchSite()
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(
            ["watch", site.root + "/nowhere", "--catalog", site.root + "/c.sqlite"], commands: ThumbKitCommands.all,
            stdout: out, stderr: err)
        #expect(status == 1)
        #expect(err.text.hasPrefix("thumbkit: \(site.root)/nowhere"))
        #expect(err.text.split(separator: "\n").count == 1)
    }

    @Test(arguments: [["--settle", "soon"], ["--settle", "-1"], ["--poll", "0"], ["-j", "0"]])
    func badTimingOptionsAreUsageErrors(options: [String]) async throws {
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(
            ["watch", "inbox"] + options, commands: ThumbKitCommands.all, stdout: out, stderr: err)
        #expect(status == 2)
        #expect(err.text.contains("error: "))
    }
}
