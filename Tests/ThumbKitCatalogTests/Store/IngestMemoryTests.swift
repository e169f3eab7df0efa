// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The watch folder's memory of files it has seen, and the timestamps the catalog stores.
struct IngestMemoryTests {
    /// On both backends: a filter left out (nil) is a NULL that PostgreSQL must be told the type of.
    @Test(arguments: CatalogBackend.all) func anIngestedFileIsRememberedByPathAndContent(backend: CatalogBackend) throws
    {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        try store.write { tx in
            try tx.recordIngest(path: "/in/a.jpg", sha256: "h1", record: nil, status: .pending)
            try tx.recordIngest(path: "/in/a.jpg", sha256: "h1", record: .bug(4), status: .imported)
            try tx.recordIngest(path: "/in/a.jpg", sha256: "h2", record: nil, status: .failed, reason: "not an image")
        }
        let seen = try store.read { try $0.ingestedFile(path: "/in/a.jpg", sha256: "h1") }
        #expect(seen?.status == .imported)
        #expect(seen?.record == .bug(4))
        #expect(try store.read { try $0.ingestedFiles() }.count == 2)
        #expect(try store.read { try $0.ingestedFiles(status: .failed) }.map(\.reason) == ["not an image"])
        #expect(try store.read { try $0.ingestedFile(path: "/in/b.jpg", sha256: "h1") } == nil)
    }

    @Test(arguments: [0.0, 1_700_000_000.123, -86_400.5, 4_102_444_800])
    func timestampsRoundTripToTheMillisecond(seconds: Double) throws {
        let text = Timestamp.string(from: Date(timeIntervalSince1970: seconds))
        let back = try #require(Timestamp.date(from: text))
        #expect(abs(back.timeIntervalSince1970 - seconds) < 0.0011)
        #expect(text.hasSuffix("Z") && text.count == 24)
    }

    @Test func timestampTextIsISO8601() {
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_700_000_000.5)) == "2023-11-14T22:13:20.500Z")
        #expect(Timestamp.date(from: "garbage") == nil)
    }
}
