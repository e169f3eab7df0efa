// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// `FileIO.writeNew` never replaces what is at its name, even something that turns up after the
/// temporary file is written and before it is published (planted through the rename seam), with
/// `RENAME_NOREPLACE` and with the `link` fallback; and it never leaves a temporary behind.
struct FileIONoReplaceTests {
    /// What a test plants at the target name in the window.
    enum Plant: String, CaseIterable, CustomTestStringConvertible {
        case foreignFile, linkToForeignFile, danglingLink
        var testDescription: String { rawValue }
    }

    static let foreignBytes = Array("a person's own notes\n".utf8)
    static let newBytes = Array("thumbkit's new file\n".utf8)

    /// The folder's names, sorted.
    static func listing(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    /// Puts `plant` at `target`; a linked file, when there is one, is `<folder>/elsewhere.txt`.
    static func put(_ plant: Plant, at target: String) {
        let elsewhere = (target as NSString).deletingLastPathComponent + "/elsewhere.txt"
        switch plant {
        case .foreignFile:
            FileManager.default.createFile(atPath: target, contents: Data(foreignBytes))
        case .linkToForeignFile:
            FileManager.default.createFile(atPath: elsewhere, contents: Data(foreignBytes))
            _ = symlink(elsewhere, target)
        case .danglingLink:
            _ = symlink(elsewhere, target)
        }
    }

    @Test(arguments: Plant.allCases, [true, false])
    func somethingPlantedWhileTheTemporaryWaitsIsLeftAloneAndReportedAsExisting(
        plant: Plant, supportsNoReplace: Bool
    ) throws {
        let dir = try TestBinary.temporaryDirectory("tk-noreplace")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("picture.png").path
        let temporaryWasComplete = Locked(false)
        let renaming = PlantingRename(supportsNoReplace: supportsNoReplace) { temporary, name in
            // The window: the temporary holds every byte, nothing is at the name yet.
            let complete = FileManager.default.contents(atPath: temporary) == Data(Self.newBytes)
            temporaryWasComplete.withLock { $0 = complete && !FileManager.default.fileExists(atPath: name) }
            Self.put(plant, at: name)
        }

        #expect(throws: NewFileError.exists(path: target)) {
            try FileIO.writeNew(Self.newBytes, to: target, renaming: renaming)
        }

        #expect(renaming.temporaries.count == 1)
        #expect(temporaryWasComplete.withLock { $0 })
        let elsewhere = dir.appendingPathComponent("elsewhere.txt").path
        switch plant {
        case .foreignFile:
            #expect(FileManager.default.contents(atPath: target) == Data(Self.foreignBytes))
            #expect(Self.listing(dir) == ["picture.png"])
        case .linkToForeignFile:
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: target) == elsewhere)
            #expect(FileManager.default.contents(atPath: elsewhere) == Data(Self.foreignBytes))
            #expect(Self.listing(dir) == ["elsewhere.txt", "picture.png"])
        case .danglingLink:
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: target) == elsewhere)
            #expect(!FileManager.default.fileExists(atPath: elsewhere))
            #expect(Self.listing(dir) == ["picture.png"])
        }
    }

    @Test(arguments: [true, false])
    func aFreeNameGetsTheWholeFileAndNoTemporaryStays(supportsNoReplace: Bool) throws {
        let dir = try TestBinary.temporaryDirectory("tk-noreplace")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("sub/picture.png").path
        let renaming = PlantingRename(supportsNoReplace: supportsNoReplace)

        try FileIO.writeNew(Self.newBytes, to: target, renaming: renaming)

        #expect(FileManager.default.contents(atPath: target) == Data(Self.newBytes))
        #expect(Self.listing(dir.appendingPathComponent("sub")) == ["picture.png"])
        let temporary = try #require(renaming.temporaries.first)
        #expect(TemporaryFileName(parsing: (temporary as NSString).lastPathComponent)?.target == "picture.png")
        // The link fallback removed its temporary name: the file has one link, not two.
        var info = stat()
        #expect(lstat(target, &info) == 0)
        #expect(info.st_nlink == 1)
    }

    @Test func theSystemRenameRefusesATakenNameOnItsOwn() throws {
        let dir = try TestBinary.temporaryDirectory("tk-noreplace")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("picture.png").path
        Self.put(.linkToForeignFile, at: target)

        #expect(throws: NewFileError.exists(path: target)) { try FileIO.writeNew(Self.newBytes, to: target) }

        #expect(
            FileManager.default.contents(atPath: dir.appendingPathComponent("elsewhere.txt").path)
                == Data(Self.foreignBytes))
        #expect(Self.listing(dir) == ["elsewhere.txt", "picture.png"])
    }

    @Test func aFolderThatCannotBeWrittenIsAWriteFailureNotExists() throws {
        let dir = try TestBinary.temporaryDirectory("tk-noreplace")
        defer { try? FileManager.default.removeItem(at: dir) }
        chmod(dir.path, 0o555)
        let target = dir.appendingPathComponent("picture.png").path
        let outcome = Unprivileged.run {
            Result { () throws(NewFileError) in try FileIO.writeNew(Self.newBytes, to: target) }
        }
        guard case .failure(.write(let path, _)) = outcome else {
            Issue.record("expected a write failure, got \(outcome)")
            return
        }
        #expect(path == target)
        #expect(Self.listing(dir).isEmpty)
    }
}
