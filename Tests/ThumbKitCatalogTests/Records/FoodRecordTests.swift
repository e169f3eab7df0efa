// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct FoodRecordTests {
    @Test func categoriesKeepTheirOrderAndCanBeReordered() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        try store.write { tx in
            for name in ["Soup", "Chicken", "Pasta"] { try tx.addCategory(name) }
        }
        #expect(try store.categories().map(\.name) == ["Soup", "Chicken", "Pasta"])
        try store.write { try $0.orderCategories(["Pasta", "Dessert"]) }
        let ordered = try store.categories()
        #expect(ordered.map(\.name) == ["Pasta", "Dessert", "Soup", "Chicken"])
        #expect(ordered.map(\.position) == [0, 1, 2, 3])
    }

    @Test func foodsAreListedInCategoryOrderWithTheirCategoryName() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let image = try ImageRef.load(path: try workspace.png("img/a.png"))
        try store.write { tx in
            try tx.addCategory("Second")
            try tx.addCategory("First")
            try tx.addFood(category: "Second", name: "S1", image: image)
            try tx.addFood(category: "First", name: "F1", image: nil)
            try tx.orderCategories(["First", "Second"])
        }
        let foods = try store.foods()
        #expect(foods.map(\.name) == ["F1", "S1"])
        #expect(foods.map(\.category) == ["First", "Second"])
        #expect(foods.last?.image == image)
    }

    @Test func aFoodNeedsAnExistingCategoryAndAUniqueNameWithinIt() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let missing = catalogError { try store.write { try $0.addFood(category: "Nope", name: "X", image: nil) } }
        if case .notFound = missing {} else { Issue.record("expected notFound, got \(String(describing: missing))") }
        try store.write { tx in
            try tx.addCategory("A")
            try tx.addCategory("B")
            try tx.addFood(category: "A", name: "Same", image: nil)
            try tx.addFood(category: "B", name: "Same", image: nil)
        }
        let duplicate = catalogError { try store.write { try $0.addFood(category: "A", name: "Same", image: nil) } }
        if case .invalidRecord = duplicate {
        } else {
            Issue.record("expected invalidRecord, got \(String(describing: duplicate))")
        }
        #expect(try store.foods().count == 2)
    }

    @Test func deletingAFoodDeletesItsOutputRows() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let food = try store.write { tx in
            try tx.addCategory("A")
            return try tx.addFood(category: "A", name: "Dish", image: nil)
        }
        try store.write { tx in
            try tx.upsertOutput(
                OutputValues(
                    record: food.ref, recipe: "r", kind: .list, scale: 1, path: "foods/1-dish/r.jpg", width: 60,
                    height: 60, format: .jpeg, bytes: 100, sourceSHA256: "x"))
        }
        #expect(try store.outputs(for: food.ref).count == 1)
        try store.write { try $0.deleteFood(id: food.id) }
        #expect(try store.read { try $0.outputs() }.isEmpty)
    }
}

extension FoodRecordTests {
    @Test func anImageIsFoundByNameButNeverOutsideItsFolder() throws {
        let workspace = try TestWorkspace()
        let png = try workspace.png("img/Chicken Marsala.png")
        try workspace.jpeg("secret.jpg")
        try workspace.png("img/.png")
        try workspace.png("img/.hidden.png")
        let folder = workspace.path("img")
        #expect(try ImageRef.find(named: "Chicken Marsala", in: folder).path == png)
        for name in ["Nope", "../secret", "..", "", ".hidden"] {
            let error = catalogError { try ImageRef.find(named: name, in: folder) }
            if case .notFound = error {
            } else {
                Issue.record("\(name): expected notFound, got \(String(describing: error))")
            }
        }
    }
}
