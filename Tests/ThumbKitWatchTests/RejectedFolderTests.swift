// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// `.rejected/` never replaces what is in it: a file or link that appears at the chosen name
/// while a file is moved there stays, and the file takes the next free name.
struct RejectedFolderTests {
    @Test(arguments: [true, false])
    func aFileThatAppearsAtTheChosenNameIsLeftAloneAndTheNextNameUsed(supportsNoReplace: Bool) throws {
        let inbox = try TestBinary.temporaryDirectory("tk-rejected")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let planted = Data("a person's own file\n".utf8)
        let once = Locked(true)
        var folder = RejectedFolder(inbox: inbox.path)
        folder.renaming = PlantingRename(supportsNoReplace: supportsNoReplace) { _, target in
            if once.withLock({ first in
                defer { first = false }; return first
            }) {
                FileManager.default.createFile(atPath: target, contents: planted)
            }
        }
        let source = inbox.appendingPathComponent("Moth.jpg")
        try Data("not a picture\n".utf8).write(to: source)

        let moved = try folder.reject(source.path, name: "Moth.jpg", reason: "broken", origin: "Moth.jpg", sha256: "")

        #expect((moved as NSString).lastPathComponent == "Moth (2).jpg")
        let rejected = inbox.appendingPathComponent(".rejected")
        #expect(try Data(contentsOf: rejected.appendingPathComponent("Moth.jpg")) == planted)
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == Data("not a picture\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: source.path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: rejected.path).sorted()
                == ["Moth (2).jpg", "Moth (2).jpg.error.txt", "Moth.jpg"])
    }

    @Test func aDanglingLinkAtTheNameCountsAsTaken() throws {
        let inbox = try TestBinary.temporaryDirectory("tk-rejected")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let rejected = inbox.appendingPathComponent(".rejected")
        try FileManager.default.createDirectory(at: rejected, withIntermediateDirectories: true)
        let link = rejected.appendingPathComponent("Moth.jpg").path
        #expect(symlink("/nonexistent/elsewhere", link) == 0)
        let source = inbox.appendingPathComponent("Moth.jpg")
        try Data("x\n".utf8).write(to: source)

        let moved = try RejectedFolder(inbox: inbox.path).reject(
            source.path, name: "Moth.jpg", reason: "broken", origin: "Moth.jpg", sha256: "")

        #expect((moved as NSString).lastPathComponent == "Moth (2).jpg")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/nonexistent/elsewhere")
    }
}
