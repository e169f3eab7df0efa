// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitTestSupport

@testable import ThumbKitCLI
@testable import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit watch` against folders and names that would make it eat its own output, run
/// forever, or write forged lines to the terminal.
struct WatchSafetyTests {
    /// `--out` or `--move-done` folders that are, lie in or hold the inbox (relative to the site).
    @Test(arguments: [
        ["--out", "inbox"], ["--out", "inbox/out"], ["--out", "inbox/foods/Soup"], ["--out", "."],
        ["--out", "link"], ["--out", "link/new"], ["--move-done", "inbox/done"], ["--move-done", "inbox"],
        ["--move-done", "."],
    ])
    func anOutOrMoveDoneFolderOverlappingTheInboxIsRefused(options: [String]) async throws {
        let site = try WatchSite()
        try FileManager.default.createSymbolicLink(atPath: site.root + "/link", withDestinationPath: site.inbox)
        try site.drop("bugs/Moth.jpg", GeneratedImages.jpeg(seed: 1))
        let absolute = [options[0], options[1] == "." ? site.root : site.root + "/" + options[1]]
        let out = TextOutput()
        let err = TextOutput()
        let arguments =
            ["watch", site.inbox, "--catalog", site.root + "/c.sqlite", "--once", "--settle", "0"]
            + (options[0] == "--out" ? [] : ["--out", site.root + "/out"]) + absolute
        let status = await CLI.run(arguments, commands: ThumbKitCommands.all, stdout: out, stderr: err)
        #expect(status == 2, "\(err.text)")
        let first = err.text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("thumbkit: error: \(options[0]) '\(absolute[1])' "), "\(err.text)")
        #expect(first.contains("inbox"))
        // Refused before anything was touched: no catalog, no outputs, the file still there.
        #expect(!FileManager.default.fileExists(atPath: site.root + "/c.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: site.inbox + "/" + InboxLayout.lockFileName))
        #expect(FileManager.default.fileExists(atPath: site.inbox + "/bugs/Moth.jpg"))
    }

    @Test func anOutFolderBesideTheInboxIsAccepted() async throws {
        let site = try WatchSite(small: true)
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(
            [
                "watch", site.inbox, "--catalog", site.root + "/c.sqlite", "--out", site.root + "/inbox-out",
                "--move-done", site.root + "/done", "--once", "--settle", "0",
            ], commands: ThumbKitCommands.all, stdout: out, stderr: err)
        #expect(status == 0, "\(err.text)")
    }

    @Test(.tags(.realProcess)) func deletingTheInboxEndsTheWatcherWithExitOne() throws {
        let site = try WatchSite()
        let watcher = try site.start(["--settle", "0"])
        try #require(watcher.waitUntilWatching(), "\(watcher.stderr)")
        try FileManager.default.removeItem(atPath: site.inbox)  // rm -rf inbox
        #expect(watcher.exitStatus(timeout: 20) == 1, "\(watcher.stderr)")
        #expect(!watcher.wasKilledBySignal)
        let failures = watcher.events.filter { $0.event == .failed }
        #expect(failures.map(\.reason) == ["the inbox was deleted or moved away"], "\(watcher.stderr)")
        #expect(watcher.events.last?.event == .stopped)
    }

    @Test(.tags(.realProcess)) func movingTheInboxAwayEndsTheWatcherWithExitOne() throws {
        let site = try WatchSite()
        let watcher = try site.start(["--settle", "0", "--poll", "0.2"])
        try #require(watcher.waitUntilWatching(), "\(watcher.stderr)")
        try #require(rename(site.inbox, site.root + "/moved") == 0)
        try FileManager.default.createDirectory(atPath: site.inbox, withIntermediateDirectories: false)
        #expect(watcher.exitStatus(timeout: 20) == 1, "\(watcher.stderr)")
        #expect(watcher.stderr.contains("the inbox was deleted or moved away"))
    }

    @Test(.tags(.realProcess)) func textLogLinesShowControlCharactersInNamesEscaped() throws {
        let site = try WatchSite()
        let forged = "bugs/x\nthumbkit: ingested Forged.jpg as bug 1\u{1B}[2J\u{1B}[31m.jpg"
        try site.drop(forged, Array("not an image".utf8))
        let watcher = try WatchProcess(
            ["watch", "inbox", "--catalog", "catalog.sqlite", "--out", "out", "--once", "--settle", "0"], in: site.root)
        #expect(watcher.exitStatus() == 1, "\(watcher.stderr)")
        let lines = watcher.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!watcher.stderr.contains("\u{1B}"), "\(watcher.stderr)")
        #expect(!lines.contains { $0.hasPrefix("thumbkit: ingested") }, "\(watcher.stderr)")
        #expect(
            lines.contains {
                $0.hasPrefix("thumbkit: inbox/bugs/x?thumbkit: ingested Forged.jpg as bug 1?[2J?[31m.jpg: ")
            })
    }
}
