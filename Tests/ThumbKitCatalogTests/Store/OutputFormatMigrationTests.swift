// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// Schema version 5 lets output rows be WebP and AVIF; the SQLite table rebuild it takes keeps
/// every row, its id, and the trigger that deletes a record's outputs with it.
struct OutputFormatMigrationTests {
    static func values(_ record: RecordRef, _ recipe: String, _ format: ImageFormat) -> OutputValues {
        OutputValues(
            record: record, recipe: recipe, kind: .list, scale: 1, path: "bugs/\(recipe).\(format.rawValue)", width: 44,
            height: 44, format: format, bytes: 10, sourceSHA256: String(repeating: "a", count: 64))
    }

    @Test(arguments: CatalogBackend.all)
    func webPAndAVIFRowsAreStored(_ backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let bug = try store.write { try $0.addBug(title: "Scarab") }
        for format in [ImageFormat.webp, .avif, .jpeg, .png] {
            _ = try store.write { try $0.upsertOutput(Self.values(bug.ref, "list-\(format.rawValue)", format)) }
        }
        #expect(Set(try store.outputs(for: bug.ref).map(\.format)) == [.webp, .avif, .jpeg, .png])
        // HEIC is read, never written: the CHECK still refuses it.
        let error = catalogError { try store.write { _ = try $0.upsertOutput(Self.values(bug.ref, "x", .heic)) } }
        if case .constraint = error {} else { Issue.record("expected constraint, got \(String(describing: error))") }
    }

    @Test func aVersionFourCatalogKeepsItsOutputRowsAndTheirIdsAndTriggers() throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("thumbkit.sqlite")
        var before: [OutputRecord] = []
        var bugs: [ThumbKitCatalog.Bug] = []
        do {
            let old = try CatalogStore(path: path, busyTimeout: .seconds(1), schemaVersion: 4)
            bugs = try old.write { tx in [try tx.addBug(title: "Kept"), try tx.addBug(title: "Deleted")] }
            for bug in bugs {
                _ = try old.write { try $0.upsertOutput(Self.values(bug.ref, "list-\(bug.id)", .jpeg)) }
            }
            before = try old.read { try $0.outputs() }
            let webp = catalogError { try old.write { _ = try $0.upsertOutput(Self.values(bugs[0].ref, "w", .webp)) } }
            if case .constraint = webp {
            } else {
                Issue.record("version 4 took a WebP row: \(String(describing: webp))")
            }
        }
        let store = try CatalogStore(path: path)
        #expect(try store.schemaVersion() == CatalogStore.latestSchemaVersion)
        #expect(try store.read { try $0.outputs() } == before)
        _ = try store.write { try $0.upsertOutput(Self.values(bugs[0].ref, "list-webp", .webp)) }
        // The delete trigger was made again: a deleted bug's outputs go with it.
        _ = try store.write { try $0.deleteBug(id: bugs[1].id) }
        #expect(try store.outputs(for: bugs[1].ref).isEmpty)
        #expect(try store.outputs(for: bugs[0].ref).count == 2)
        #expect(try store.quickCheck() == [])
    }
}
