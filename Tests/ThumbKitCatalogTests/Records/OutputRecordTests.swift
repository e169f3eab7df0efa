// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct OutputRecordTests {
    static func values(
        _ record: RecordRef, recipe: String = "recipe/v1?x", scale: Int = 1, bytes: Int = 1000,
        path: String? = nil
    ) -> OutputValues {
        OutputValues(
            record: record, recipe: recipe, kind: .list, scale: scale,
            path: path ?? "\(record.kind.folderName)/\(record.id)-x/list@\(scale)x.jpg", width: 44 * scale,
            height: 44 * scale, format: .jpeg, bytes: bytes, sourceSHA256: "abc")
    }

    @Test func upsertReplacesTheRowForTheSameRecordRecipeAndScale() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let bug = try store.write { try $0.addBug(title: "B") }
        let first = try store.write { try $0.upsertOutput(Self.values(bug.ref, bytes: 100)) }
        let second = try store.write { try $0.upsertOutput(Self.values(bug.ref, bytes: 200)) }
        try store.write { try $0.upsertOutput(Self.values(bug.ref, scale: 2)) }
        try store.write { try $0.upsertOutput(Self.values(bug.ref, recipe: "recipe/v1?y")) }
        #expect(second.id == first.id)
        #expect(second.bytes == 200)
        let rows = try store.outputs(for: bug.ref)
        #expect(rows.count == 3)
        #expect(rows.map(\.recipe) == ["recipe/v1?x", "recipe/v1?x", "recipe/v1?y"])
        #expect(rows.map(\.scale) == [1, 2, 1])
    }

    @Test(arguments: CatalogBackend.all) func oneStatementUpsertsARecordsRowsAsOneUpsertEachWould(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let bug = try store.write { try $0.addBug(title: "B") }
        let kept = try store.write { try $0.upsertOutput(Self.values(bug.ref, bytes: 100)) }
        try store.write { tx in
            try tx.upsertOutputs([
                Self.values(bug.ref, bytes: 150), Self.values(bug.ref, scale: 2, bytes: 300),
                Self.values(bug.ref, bytes: 200),  // the same key again: the last values win
                Self.values(bug.ref, recipe: "recipe/v1?y", bytes: 400),
            ])
        }
        let rows = try store.outputs(for: bug.ref)
        #expect(rows.map(\.recipe) == ["recipe/v1?x", "recipe/v1?x", "recipe/v1?y"])
        #expect(rows.map(\.scale) == [1, 2, 1] && rows.map(\.bytes) == [200, 300, 400])
        #expect(rows[0].id == kept.id)  // updated in place
        // An unsafe row refuses the whole call before anything is written.
        let error = catalogError {
            try store.write { tx in
                try tx.upsertOutputs([Self.values(bug.ref, scale: 3), Self.values(bug.ref, scale: 4, path: "../x.jpg")])
            }
        }
        if case .invalidRecord = error {
        } else {
            Issue.record("expected invalidRecord, got \(String(describing: error))")
        }
        #expect(try store.outputs(for: bug.ref).count == 3)
    }

    @Test(arguments: ["../escape.jpg", "/abs.jpg", "bugs/.hidden.jpg", ""])
    func anUnsafePathIsRefused(path: String) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let error = catalogError { try store.write { try $0.upsertOutput(Self.values(.bug(1), path: path)) } }
        if case .invalidRecord = error {
        } else {
            Issue.record("expected invalidRecord, got \(String(describing: error))")
        }
        #expect(try store.read { try $0.outputs() }.isEmpty)
    }

    @Test func staleOutputsAreDeletedAndReturnedSoTheirFilesCanGo() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let keep = Self.values(.bug(1), recipe: "new")
        let stale = try store.write { tx in
            try tx.upsertOutput(keep)
            try tx.upsertOutput(Self.values(.bug(1), recipe: "old"))
            try tx.upsertOutput(Self.values(.bug(2), recipe: "old"))
            return try tx.deleteOutputs(for: .bug(1), keeping: [keep.key])
        }
        #expect(stale.map(\.recipe) == ["old"])
        #expect(try store.outputs(for: .bug(1)).map(\.recipe) == ["new"])
        #expect(try store.outputs(for: .bug(2)).count == 1)
        #expect(try store.write { try $0.deleteOutput(keep.key) })
        #expect(try store.outputs(for: .bug(1)).isEmpty)
    }

    @Test func theSummaryGivesOutputByteStatistics() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        #expect(try store.summary().outputBytes == nil)
        try store.write { tx in
            for (scale, bytes) in [(1, 100), (2, 400), (3, 1000)] {
                try tx.upsertOutput(Self.values(.app, scale: scale, bytes: bytes))
            }
        }
        let bytes = try #require(try store.summary().outputBytes)
        #expect(
            bytes.count == 3 && bytes.min == 100 && bytes.max == 1000 && bytes.average == 500 && bytes.total == 1500)
    }
}
