// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// The sweep walks the output folder holding no lock and removes under the write lock: whatever
/// changes between the two (a commit, a user, a link) must not make it remove a file that is
/// not an unreferenced output of its own.
struct SweepRaceTests {
    /// Runs `change` once the walk has found its candidates.
    struct Interleaving: SweepPoints {
        let change: @Sendable ([String]) -> Void
        func walked(candidates: [String]) { change(candidates) }
    }

    static func age(_ path: String) { BuildOwnershipTests.age(path) }

    @Test func whatChangedSinceTheWalkIsKeptAndOnlyTheUntouchedOrphanGoes() throws {
        let fixture = try BuildFixture()
        #expect(fixture.builder().build().failed == 0)
        let out = fixture.out
        // A built file whose row is out, as in a commit that found its file in place and has
        // not yet recorded it: its row comes back while the sweep walks.
        let row = try #require(try fixture.store.outputs(for: .bug(1)).first)
        try fixture.store.write { tx in _ = try tx.db.run("DELETE FROM outputs WHERE path = ?", [.text(row.path)]) }
        Self.age(out + "/" + row.path)
        // Orphans named as outputs, old enough to sweep.
        let rewritten = "bugs/8-gone/bug-list.0123abcd.jpg"
        let linkedFolder = "bugs/9-gone/bug-list.0123abcd.jpg"
        let linkedFile = "bugs/7-gone/bug-list.0123abcd.jpg"
        let untouched = "bugs/6-gone/bug-list.0123abcd.jpg"
        for path in [rewritten, linkedFolder, linkedFile, untouched] {
            try fixture.workspace.write("out/" + path, text: "left by a deleted record")
            Self.age(out + "/" + path)
        }
        // A user's folder elsewhere, holding files with the very names of two orphans.
        let photos = fixture.workspace.path("photos")
        try fixture.workspace.write("photos/bug-list.0123abcd.jpg", text: "a user's photo")
        Self.age(photos + "/bug-list.0123abcd.jpg")
        let store = fixture.store
        var builder = fixture.builder()
        let seen = Locked<[String]>([])
        builder.sweepPoints = Interleaving { candidates in
            seen.withLock { $0 = candidates }
            _ = try? store.write { tx in try tx.upsertOutput(row.values) }
            FileManager.default.createFile(atPath: out + "/" + rewritten, contents: Data("rewritten".utf8))
            // A record folder swapped for a link to the user's folder, and an orphan for a link
            // to the user's photo.
            try? FileManager.default.removeItem(atPath: out + "/bugs/9-gone")
            symlink(photos, out + "/bugs/9-gone")
            unlink(out + "/" + linkedFile)
            symlink(photos + "/bug-list.0123abcd.jpg", out + "/" + linkedFile)
        }
        // A second back: file times come from the kernel's coarse clock, a few ms behind `Date()`.
        let removed = try builder.sweep(OutputFolder(root: out), before: Date().addingTimeInterval(-1))
        #expect(Set(seen.withLock { $0 }) == [row.path, rewritten, linkedFolder, linkedFile, untouched])
        #expect(removed == 1)
        #expect(!FileManager.default.fileExists(atPath: out + "/" + untouched))
        #expect(FileManager.default.fileExists(atPath: out + "/" + row.path))
        #expect(FileManager.default.contents(atPath: out + "/" + rewritten) == Data("rewritten".utf8))
        #expect(FileManager.default.contents(atPath: photos + "/bug-list.0123abcd.jpg") == Data("a user's photo".utf8))
        var info = stat()
        #expect(lstat(out + "/bugs/9-gone", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(lstat(out + "/" + linkedFile, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    }

    /// The walk holds no lock: another connection's write (a worker's commit) runs through while
    /// it walks (under the old sweep it waited for the lock, and failed after the busy timeout).
    @Test(arguments: CatalogBackend.all)
    func aCommitRunsWhileTheSweepWalks(backend: CatalogBackend) throws {
        let fixture = try BuildFixture(backend: backend)
        #expect(fixture.builder().build().failed == 0)
        let other = try fixture.workspace.store(busyTimeout: .milliseconds(500), backend: backend)
        var builder = fixture.builder()
        let committed = Locked(false)
        builder.sweepPoints = Interleaving { _ in
            // On another connection, with the build's own connection idle in the walk.
            let done = (try? other.write(mode: .shared) { tx in try tx.addCategory("Soup") }) != nil
            committed.withLock { $0 = done }
        }
        _ = try builder.sweep(OutputFolder(root: fixture.out), before: Date())
        #expect(committed.withLock { $0 })
    }
}
