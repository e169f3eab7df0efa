// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitServe

/// `local:///path` never leaves `--root`: each test plants a readable file outside the root and
/// tries to reach it.
@Suite struct SourceRootTests {
    let base: URL
    let root: String
    let secret: String

    init() throws {
        base = try TestBinary.temporaryDirectory("serve-root")
        root = base.appendingPathComponent("root").path
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        secret = base.appendingPathComponent("secret.jpg").path
        try Data(GeneratedImages.jpeg(seed: 1)).write(to: URL(fileURLWithPath: secret))
        try Data(GeneratedImages.jpeg(seed: 2)).write(to: URL(fileURLWithPath: root + "/photos/a.jpg"))
    }

    @Test func aFileUnderTheRootOpensAndReadsWhole() throws {
        let source = try SourceRoot(root).open("/photos/a.jpg")
        #expect(source.path == "photos/a.jpg")
        #expect(try source.read(maxBytes: 1 << 20) == GeneratedImages.jpeg(seed: 2))
    }

    @Test(arguments: [
        "/../secret.jpg", "/photos/../../secret.jpg", "../secret.jpg", "/photos/..", "/", "", "/photos",
        "/photos/a.jpg\u{0}", "/photos/missing.jpg",
    ])
    func pathsThatLeaveTheRootOrNameNoFileAreNotFound(path: String) throws {
        #expect(throws: SourceRoot.Failure.notFound) { try SourceRoot(root).open(path) }
    }

    @Test func anAbsolutePathIsReadBelowTheRootNotFromTheFileSystemRoot() throws {
        #expect(throws: SourceRoot.Failure.notFound) { try SourceRoot(root).open(secret) }
    }

    @Test func aLinkLeavingTheRootIsNotFoundButOneInsideItIsFollowed() throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/out.jpg", withDestinationPath: secret)
        try FileManager.default.createSymbolicLink(atPath: root + "/up", withDestinationPath: base.path)
        try FileManager.default.createSymbolicLink(atPath: root + "/in.jpg", withDestinationPath: "photos/a.jpg")
        let sourceRoot = try SourceRoot(root)
        #expect(throws: SourceRoot.Failure.notFound) { try sourceRoot.open("/out.jpg") }
        #expect(throws: SourceRoot.Failure.notFound) { try sourceRoot.open("/up/secret.jpg") }
        #expect(try sourceRoot.open("/in.jpg").read(maxBytes: 1 << 20) == GeneratedImages.jpeg(seed: 2))
    }

    @Test func aRootThatIsItselfALinkStillConfinesPaths() throws {
        let linkedRoot = base.appendingPathComponent("linked-root").path
        try FileManager.default.createSymbolicLink(atPath: linkedRoot, withDestinationPath: root)
        let sourceRoot = try SourceRoot(linkedRoot)
        #expect(try sourceRoot.open("photos/a.jpg").size > 0)
        #expect(throws: SourceRoot.Failure.notFound) { try sourceRoot.open("../secret.jpg") }
    }

    @Test func aFifoOrAFolderIsNotServedAndDoesNotBlock() throws {
        #expect(mkfifo(root + "/pipe.jpg", 0o644) == 0)
        #expect(throws: SourceRoot.Failure.notFound) { try SourceRoot(root).open("/pipe.jpg") }
        #expect(throws: SourceRoot.Failure.notFound) { try SourceRoot(root).open("/photos/") }
    }

    @Test func aFileOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
        let source = try SourceRoot(root).open("/photos/a.jpg")
        #expect(throws: SourceRoot.Failure.self) { try source.read(maxBytes: source.size - 1) }
        #expect(try source.read(maxBytes: source.size).count == source.size)
    }

    @Test func theIdentityChangesWhenTheFileIsReplaced() throws {
        let before = try SourceRoot(root).open("/photos/a.jpg").identity
        let temporary = root + "/photos/.new"
        try Data(GeneratedImages.jpeg(seed: 3)).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, root + "/photos/a.jpg") == 0)
        #expect(try SourceRoot(root).open("/photos/a.jpg").identity != before)
    }
}
