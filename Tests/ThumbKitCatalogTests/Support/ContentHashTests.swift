// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct ContentHashTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func bytesHashToTheStandardSHA256Vectors(text: String, hex: String) {
        #expect(ContentHash.sha256(of: Array(text.utf8)) == hex)
    }

    @Test func aFileLargerThanOneChunkHashesLikeItsBytes() throws {
        let workspace = try TestWorkspace()
        let bytes = (0..<(ContentHash.chunkSize * 2 + 12345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let path = try workspace.write("big.bin", bytes)
        #expect(try ContentHash.sha256(ofFileAt: path) == ContentHash.sha256(of: bytes))
    }

    @Test func aMissingFileIsAnIOErrorNamingIt() throws {
        let workspace = try TestWorkspace()
        let missing = workspace.path("nope.png")
        let error = catalogError { _ = try ContentHash.sha256(ofFileAt: missing) }
        guard case .io(let path, let reason) = error else {
            Issue.record("expected io, got \(String(describing: error))")
            return
        }
        #expect(path == missing)
        #expect(reason.contains("no such file"))
    }

    @Test func aFolderIsRejectedRatherThanHashed() throws {
        let workspace = try TestWorkspace()
        let error = catalogError { _ = try ContentHash.sha256(ofFileAt: workspace.root) }
        #expect(error?.reason.contains("folder") == true)
    }
}
