// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// A build of some records reads each kind's records, and their output rows, in one query over a
/// list of ids (`CatalogDialect.isOneOf`), on each backend: the same answers as one read per
/// record, missing ids skipped.
struct RecordListReadTests {
    static func values(_ record: RecordRef, _ recipe: String, scale: Int) -> OutputValues {
        OutputValues(
            record: record, recipe: recipe, kind: .list, scale: scale,
            path: "\(record.kind)s/\(record.id)/\(recipe)@\(scale).png",
            width: 8, height: 8, format: .png, bytes: 10, sourceSHA256: String(repeating: "a", count: 64))
    }

    @Test(arguments: CatalogBackend.all) func listsOfIdsReadWhatOneReadPerRecordReads(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let (bugs, foods) = try store.write { tx in
            let bugs = try (0..<5).map { try tx.addBug(title: "Bug \($0)") }
            _ = try tx.addCategory("Soups")
            let foods = try (0..<4).map { try tx.addFood(category: "Soups", name: "Soup \($0)", image: nil) }
            for record in bugs.map(\.ref) + foods.map(\.ref) {
                for (recipe, scale) in [("list", 2), ("detail", 1), ("list", 1)] {
                    try tx.upsertOutput(Self.values(record, recipe, scale: scale))
                }
            }
            try tx.upsertOutput(Self.values(.app, "strip", scale: 1))
            return (bugs, foods)
        }
        let wantedBugs = [bugs[3].id, bugs[0].id, 999, bugs[3].id]
        let wantedFoods = [foods[2].id, foods[1].id, 998]
        try store.read { tx in
            let foundBugs = try tx.bugs(ids: wantedBugs)
            #expect(foundBugs == [try tx.bug(id: bugs[0].id), try tx.bug(id: bugs[3].id)].compactMap { $0 })
            let foundFoods = try tx.foods(ids: wantedFoods)
            #expect(foundFoods == [try tx.food(id: foods[1].id), try tx.food(id: foods[2].id)].compactMap { $0 })
            let bugRows = try tx.outputs(of: .bug, ids: wantedBugs)
            #expect(bugRows == (try tx.outputs(for: bugs[0].ref) + tx.outputs(for: bugs[3].ref)))
            #expect(
                bugRows.count == 6 && bugRows.map(\.recipe) == ["detail", "list", "list", "detail", "list", "list"])
            // With the app's rows, in the same query: the app's rows (record 0) and no bug 0's.
            let withApp = try tx.outputs(of: .bug, ids: wantedBugs, app: true)
            #expect(withApp == (try tx.outputs(for: .app) + bugRows) && withApp.count == 7)
            let foodRows = try tx.outputs(of: .food, ids: wantedFoods)
            #expect(foodRows == (try tx.outputs(for: foods[1].ref) + tx.outputs(for: foods[2].ref)))
            // A bug with the same id as a food is not read for the food (ids count per table).
            let shared = foods[0].id
            #expect(bugs.contains { $0.id == shared })
            let sharedRows = try tx.outputs(of: .food, ids: [shared])
            #expect(sharedRows.count == 3 && sharedRows.allSatisfy { $0.record == foods[0].ref })
            #expect(try tx.bugs(ids: []).isEmpty && tx.outputs(of: .bug, ids: []).isEmpty)
        }
    }
}
