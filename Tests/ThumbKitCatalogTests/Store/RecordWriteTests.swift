// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The record writes return what they wrote without reading it back, and `addBug` and `addFood`
/// find a taken title or name through the insert's own conflict (no look-up first): the caller
/// gets the same error as before, nothing is written, and on PostgreSQL the transaction stays
/// usable (a failed statement there would doom it).
struct RecordWriteTests {
    @Test(arguments: CatalogBackend.all)
    func aTakenTitleOrNameIsRefusedAndTheTransactionGoesOn(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let image = ImageRef(path: "/photos/a.png", sha256: String(repeating: "a", count: 64))
        let (moth, soup) = try store.write { tx in
            (
                try tx.addBug(title: "Moth", rating: .zero, image: image),
                try { () throws(CatalogError) -> Food in
                    try tx.addCategory("Soups")
                    return try tx.addFood(category: "Soups", name: "Borscht", image: image)
                }()
            )
        }
        let refusals = try store.write { tx -> [String] in
            var refusals: [String] = []
            do {
                try tx.addBug(title: "Moth", rating: .zero, image: nil)
            } catch {
                refusals.append("\(error)")
            }
            do {
                try tx.addFood(category: "Soups", name: "Borscht", image: nil)
            } catch {
                refusals.append("\(error)")
            }
            do {
                let soups = try #require(try tx.category(named: "Soups"))
                try tx.addFood(in: soups, name: "Borscht", image: nil)
            } catch {
                refusals.append("\(error)")
            }
            // The same transaction writes on and commits.
            try tx.addBug(title: "Wasp", rating: .zero, image: nil)
            return refusals
        }
        #expect(refusals.count == 3)
        #expect(refusals[0].contains("a bug with this title already exists"))
        #expect(refusals[1].contains("its category already has a food with this name"))
        #expect(refusals[2].contains("its category already has a food with this name"))
        let (bugs, foods) = try store.read { tx in (try tx.bugs(), try tx.foods()) }
        #expect(bugs.map(\.title) == ["Moth", "Wasp"])
        #expect(bugs.first == moth)  // untouched by the refused insert
        #expect(foods == [soup])
    }

    @Test(arguments: CatalogBackend.all)
    func aFoodAddedToACategoryReadsBackAsItWasReturned(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let image = ImageRef(path: "/photos/b.png", sha256: String(repeating: "b", count: 64))
        let added = try store.write { tx in
            let category = try tx.addCategory("Salads")
            return try tx.addFood(in: category, name: "Caesar", image: image)
        }
        let stored = try store.read { try $0.food(id: added.id) }
        #expect(stored == added)
    }

    @Test(arguments: CatalogBackend.all)
    func everyChangeReturnsTheRecordAsItReadsBack(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let first = ImageRef(path: "/photos/c.png", sha256: String(repeating: "c", count: 64))
        let second = ImageRef(path: "/photos/d.png", sha256: String(repeating: "d", count: 64))
        let returned = try store.write { tx -> (bugs: [ThumbKitCatalog.Bug], foods: [Food]) in
            let bug = try tx.addBug(title: "Moth", rating: .zero, image: first)
            Thread.sleep(forTimeInterval: 0.01)  // a later updated_at than created_at
            let imaged = try tx.setImage(bugID: bug.id, image: second)
            let rated = try tx.rate(bugID: bug.id, rating: 3.5)
            let retitled = try tx.retitle(bugID: bug.id, title: "Luna Moth")
            let food = try tx.addFood(in: try tx.addCategory("Soups"), name: "Borscht", image: first)
            Thread.sleep(forTimeInterval: 0.01)
            let refoodimaged = try tx.setImage(foodID: food.id, image: second)
            return ([imaged, rated, retitled], [refoodimaged])
        }
        let stored = try store.read { tx in (try tx.requireBug(id: returned.bugs[0].id), try tx.foods()) }
        #expect(returned.bugs.last == stored.0)
        #expect(returned.bugs[0].image == second)
        #expect(returned.bugs[1].rating.value == 3.5)
        #expect(stored.0.updatedAt > stored.0.createdAt)
        #expect(returned.foods == stored.1)
        #expect(stored.1.first?.image == second)
        #expect(stored.1.first.map { $0.updatedAt > $0.createdAt } == true)
    }
}
