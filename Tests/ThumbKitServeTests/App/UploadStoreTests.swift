// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitTestSupport

@testable import ThumbKitServe

#if canImport(Glibc)
    import Glibc
#endif

/// The upload folder is named by content, and nothing already in it is ever replaced: a file or
/// a link that a person put at an upload's name stays as it was, and the upload is refused.
struct UploadStoreTests {
    static func store(renaming: any NoReplaceRenaming = SystemNoReplaceRename()) throws -> (UploadStore, URL) {
        let folder = try TestBinary.temporaryDirectory("tk-uploads")
        return (UploadStore(folder: folder.path, limits: ImageLimits(), renaming: renaming), folder)
    }

    /// The folder's names, sorted (a temporary left behind would show here).
    static func listing(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test(arguments: [true, false])
    func aForeignFileThatAppearsWhileTheUploadIsWrittenIsLeftAlone(supportsNoReplace: Bool) throws {
        let planted = Data("a person's own notes, saved just now\n".utf8)
        let renaming = PlantingRename(supportsNoReplace: supportsNoReplace) { _, target in
            FileManager.default.createFile(atPath: target, contents: planted)
        }
        let (store, folder) = try Self.store(renaming: renaming)
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = GeneratedImages.png(seed: 6)
        let name = ContentHash.sha256(of: picture) + ".png"

        #expect(throws: UploadStore.Rejected.self) { try store.store(picture, filename: "x.png") }

        #expect(renaming.temporaries.count == 1)
        #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == planted)
        #expect(Self.listing(folder) == [name])
    }

    @Test(arguments: [true, false])
    func aLinkThatAppearsWhileTheUploadIsWrittenIsNotReplacedNorWrittenThrough(supportsNoReplace: Bool) throws {
        let folder = try TestBinary.temporaryDirectory("tk-uploads")
        defer { try? FileManager.default.removeItem(at: folder) }
        let elsewhere = folder.appendingPathComponent("elsewhere.txt")
        try Data("kept\n".utf8).write(to: elsewhere)
        let renaming = PlantingRename(supportsNoReplace: supportsNoReplace) { _, target in
            _ = symlink(elsewhere.path, target)
        }
        let store = UploadStore(folder: folder.path, limits: ImageLimits(), renaming: renaming)
        let picture = GeneratedImages.png(seed: 7)
        let link = folder.appendingPathComponent(ContentHash.sha256(of: picture) + ".png")

        #expect(throws: UploadStore.Rejected.self) { try store.store(picture, filename: "x.png") }

        #expect(renaming.temporaries.count == 1)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == elsewhere.path)
        #expect(try Data(contentsOf: elsewhere) == Data("kept\n".utf8))
        #expect(Self.listing(folder) == [link.lastPathComponent, "elsewhere.txt"].sorted())
    }

    @Test(arguments: [true, false])
    func theSamePictureStoredByAnotherUploadInTheWindowIsUsed(supportsNoReplace: Bool) throws {
        let picture = GeneratedImages.png(seed: 8)
        let renaming = PlantingRename(supportsNoReplace: supportsNoReplace) { _, target in
            FileManager.default.createFile(atPath: target, contents: Data(picture))
        }
        let (store, folder) = try Self.store(renaming: renaming)
        defer { try? FileManager.default.removeItem(at: folder) }

        let stored = try store.store(picture, filename: "x.png")

        #expect(stored.path == folder.appendingPathComponent(ContentHash.sha256(of: picture) + ".png").path)
        #expect(Self.listing(folder) == [(stored.path as NSString).lastPathComponent])
    }

    @Test(arguments: [true, false])
    func anUploadToAFreeNameIsStoredWhole(supportsNoReplace: Bool) throws {
        let renaming = PlantingRename(supportsNoReplace: supportsNoReplace)
        let (store, folder) = try Self.store(renaming: renaming)
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = GeneratedImages.png(seed: 9)

        let stored = try store.store(picture, filename: "x.png")

        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: stored.path))) == picture)
        #expect(Self.listing(folder) == [(stored.path as NSString).lastPathComponent])
    }

    @Test func aForeignFileAtTheUploadsNameIsLeftAloneAndTheUploadRefused() throws {
        let (store, folder) = try Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = GeneratedImages.png(seed: 3)
        let name = ContentHash.sha256(of: picture) + ".png"
        let foreign = folder.appendingPathComponent(name)
        try Data("a person's own notes\n".utf8).write(to: foreign)
        #expect(throws: UploadStore.Rejected.self) { try store.store(picture, filename: "x.png") }
        #expect(try Data(contentsOf: foreign) == Data("a person's own notes\n".utf8))
    }

    @Test func aLinkAtTheUploadsNameIsNotReplacedNorWrittenThrough() throws {
        let (store, folder) = try Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = GeneratedImages.png(seed: 4)
        let link = folder.appendingPathComponent(ContentHash.sha256(of: picture) + ".png")
        let target = folder.appendingPathComponent("elsewhere.txt")
        try Data("kept\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: UploadStore.Rejected.self) { try store.store(picture, filename: "x.png") }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try Data(contentsOf: target) == Data("kept\n".utf8))
    }

    @Test func theSamePictureUploadedTwiceIsStoredOnce() throws {
        let (store, folder) = try Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = GeneratedImages.png(seed: 5)
        let first = try store.store(picture, filename: "a.png")
        let second = try store.store(picture, filename: "b.png")
        #expect(first == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
    }
}
