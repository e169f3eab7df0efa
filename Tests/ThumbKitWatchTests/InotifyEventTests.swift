// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// Parsing of raw `struct inotify_event` records, and the watcher over a real folder.
struct InotifyEventTests {
    /// One record as the kernel lays it out: wd, mask, cookie, len, then the name padded with
    /// NULs to `len` bytes.
    private func record(watch: Int32, mask: Int32, cookie: UInt32 = 0, name: [UInt8], padTo: Int? = nil) -> [UInt8] {
        let length = padTo ?? (name.isEmpty ? 0 : (name.count + 1 + 3) / 4 * 4)
        var bytes: [UInt8] = []
        withUnsafeBytes(of: watch.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt32(bitPattern: mask).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: cookie.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt32(length).littleEndian) { bytes += $0 }
        return bytes + name + [UInt8](repeating: 0, count: length - name.count)
    }

    private func parse(_ bytes: [UInt8]) -> (events: [InotifyEvent], truncated: Bool, invalidNames: Int) {
        bytes.withUnsafeBytes { InotifyEvent.parse($0) }
    }

    @Test func consecutiveRecordsWithPaddedNamesAreParsedInOrder() {
        let buffer =
            record(watch: 1, mask: IN_CLOSE_WRITE, name: Array("Moth.jpg".utf8))
            + record(watch: 2, mask: IN_MOVED_TO, cookie: 9, name: Array("Penne.png".utf8), padTo: 32)
            + record(watch: 1, mask: IN_Q_OVERFLOW, name: [])
        let parsed = parse(buffer)
        #expect(!parsed.truncated)
        #expect(
            parsed.events == [
                InotifyEvent(watch: 1, mask: UInt32(IN_CLOSE_WRITE), cookie: 0, name: "Moth.jpg"),
                InotifyEvent(watch: 2, mask: UInt32(IN_MOVED_TO), cookie: 9, name: "Penne.png"),
                InotifyEvent(watch: 1, mask: UInt32(IN_Q_OVERFLOW), cookie: 0, name: ""),
            ])
    }

    @Test func aHeaderCutShortStopsTheParseAndSaysSo() {
        let whole = record(watch: 1, mask: IN_CLOSE_WRITE, name: Array("a.jpg".utf8))
        let parsed = parse(whole + Array(whole.prefix(10)))
        #expect(parsed.events.count == 1)
        #expect(parsed.truncated)
    }

    @Test func aNameLengthPastTheBufferIsNeverRead() {
        var bytes = record(watch: 1, mask: IN_CLOSE_WRITE, name: Array("a.jpg".utf8))
        bytes[12] = 0xFF  // len = 255 + …, far past the 8 name bytes present
        let parsed = parse(bytes)
        #expect(parsed.events.isEmpty)
        #expect(parsed.truncated)
    }

    @Test func aNameThatIsNotUTF8IsDroppedAndCounted() {
        let parsed = parse(
            record(watch: 1, mask: IN_CLOSE_WRITE, name: [0x66, 0xFF, 0xFE])
                + record(watch: 1, mask: IN_CLOSE_WRITE, name: Array("ok.jpg".utf8)))
        #expect(parsed.events.map(\.name) == ["ok.jpg"])
        #expect(parsed.invalidNames == 1)
        #expect(!parsed.truncated)
    }

    @Test func anEmptyBufferHasNoEvents() {
        let parsed = parse([])
        #expect(parsed.events.isEmpty && !parsed.truncated)
    }

    @Test func theWatcherReportsClosedAndRenamedFilesButNotOpenOnes() throws {
        let workspace = try TestWorkspace()
        let watcher = try InotifyWatcher(root: workspace.root)
        #expect(watcher.watch(folder: "") == nil)
        try FileManager.default.createDirectory(atPath: workspace.path("bugs"), withIntermediateDirectories: true)
        #expect(watcher.watch(folder: "bugs") == nil)

        let fd = open(workspace.path("bugs/open.jpg"), O_WRONLY | O_CREAT, 0o644)
        defer { close(fd) }
        try workspace.write("bugs/closed.jpg", [1, 2, 3])
        try workspace.write("staging.tmp", [4])
        rename(workspace.path("staging.tmp"), workspace.path("bugs/renamed.jpg"))
        try FileManager.default.createDirectory(atPath: workspace.path("foods"), withIntermediateDirectories: true)

        let changes = watcher.changes(now: 0)
        #expect(changes.contains(.candidate("bugs/closed.jpg")))
        #expect(changes.contains(.candidate("bugs/renamed.jpg")))
        #expect(changes.contains(.folderAppeared("foods")))
        #expect(!changes.contains(.candidate("bugs/open.jpg")))
        #expect(changes.contains(.removed("staging.tmp")))
    }

    @Test func aFolderRenamedAwayIsNoLongerWatched() throws {
        let workspace = try TestWorkspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path("inbox/foods/Pasta"), withIntermediateDirectories: true)
        let watcher = try InotifyWatcher(root: workspace.path("inbox"))
        for folder in ["", "foods", "foods/Pasta"] { #expect(watcher.watch(folder: folder) == nil) }
        rename(workspace.path("inbox/foods/Pasta"), workspace.path("Pasta-elsewhere"))
        let changes = watcher.changes(now: 0)
        #expect(changes.contains(.removed("foods/Pasta")))
        #expect(watcher.watchedFolders == ["", "foods"])
        try workspace.write("Pasta-elsewhere/Penne.jpg", [1])
        #expect(watcher.changes(now: 0).isEmpty)
    }
}
