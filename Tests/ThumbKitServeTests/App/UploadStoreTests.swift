// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitTestSupport

@testable import ThumbKitServe

/// The upload folder is named by content, and nothing already in it is ever replaced: a file or
/// a link that a person put at an upload's name stays as it was, and the upload is refused.
struct UploadStoreTests {
    static func store() throws -> (UploadStore, URL) {
        let folder = try TestBinary.temporaryDirectory("tk-uploads")
        return (UploadStore(folder: folder.path, limits: ImageLimits()), folder)
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
