// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct TemporaryFileNameTests {
    /// A host tag that is not this host's (8 hex digits, as `localHost` is).
    static let otherHost = TemporaryFileName.localHost == "0badf00d" ? "0badf00e" : "0badf00d"

    @Test func aNewNameCarriesThisHostAndProcessAndReadsBack() throws {
        let name = TemporaryFileName.make(for: "bug-list.0cba329d@2x.jpg")
        #expect(name.hasPrefix(".bug-list.0cba329d@2x.jpg.tmp-\(TemporaryFileName.localHost)-\(getpid())-"))
        let parsed = try #require(TemporaryFileName(parsing: name))
        #expect(parsed.target == "bug-list.0cba329d@2x.jpg")
        #expect(parsed.host == TemporaryFileName.localHost)
        #expect(parsed.pid == getpid())
        #expect(parsed.writer == .thisProcess)
        #expect(name.utf8.count - "bug-list.0cba329d@2x.jpg".utf8.count <= TemporaryFileName.maxAddedBytes)
        #expect(TemporaryFileName.make(for: "a.jpg") != TemporaryFileName.make(for: "a.jpg"))
    }

    @Test func theHostTagIsEightLowercaseHexDigits() {
        let tag = TemporaryFileName.localHost
        #expect(tag.utf8.count == 8)
        #expect(tag.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) })
    }

    @Test(
        arguments: [
            (".a.jpg.tmp-123-456", "a.jpg", 123), (".a.b.png.tmp-7-0", "a.b.png", 7),
            (".x.tmp-99-4294967295", "x", 99), (".a.jpg.tmp-0badf00d-123-456", "a.jpg", 123),
            (".a.jpg.tmp-0-1", "a.jpg", 0),
        ] as [(String, String, Int32)])
    func temporaryNamesAreRecognised(_ name: String, _ target: String, _ pid: Int32) throws {
        let parsed = try #require(TemporaryFileName(parsing: name))
        #expect(parsed.target == target)
        #expect(parsed.pid == pid)
    }

    @Test(
        arguments: [
            "a.jpg.tmp-123-456", ".a.jpg", ".a.jpg.tmp-12x-4", ".a.jpg.tmp-1-2-3", ".tmp-5-6", ".a.jpg.tmp--5",
            ".a.jpg.tmp-5-", ".a.jpg.tmp-5-99999999999", ".a.jpg.tmp-0BADF00D-1-2", ".a.jpg.tmp-0badf00-1-2",
            ".a.jpg.tmp-0badf00d-1-2-3", ".a.jpg.tmp-0badf00d--2", ".a.jpg.tmp-99999999999-1",
        ])
    func otherNamesAreNotTemporaries(_ name: String) {
        #expect(TemporaryFileName(parsing: name) == nil)
    }

    @Test func theWriterIsProbedOnlyOnItsOwnHost() throws {
        // pid_t's maximum is far above the kernel's pid_max (at most 2^22): no such process.
        let here = TemporaryFileName.localHost
        #expect(TemporaryFileName(parsing: ".a.tmp-\(here)-2147483646-1")?.writer == .gone)
        #expect(TemporaryFileName(parsing: ".a.tmp-2147483646-1")?.writer == .gone)  // no host: this one
        #expect(TemporaryFileName(parsing: ".a.tmp-\(here)-1-1")?.writer == .running)  // pid 1 always exists
        #expect(TemporaryFileName(parsing: ".a.tmp-0-1")?.writer == .gone)  // pid 0 is never a writer
        #expect(TemporaryFileName(parsing: ".a.tmp-\(Self.otherHost)-2147483646-1")?.writer == .elsewhere)
        #expect(TemporaryFileName(parsing: ".a.tmp-\(Self.otherHost)-0-1")?.writer == .elsewhere)
    }
}
