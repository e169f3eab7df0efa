// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct RecipeBookTests {
    @Test func theDefaultsAreTheFourDocumentedRecipes() throws {
        let book = RecipeBook.defaults
        #expect(book.recipes.map(\.name) == ["bug-list", "bug-detail", "food-list", "food-detail"])
        let bugList = try #require(book.recipe(named: "bug-list"))
        #expect(bugList.size.text == "44x44" && bugList.mode == .fill && bugList.scales == [1, 2, 3])
        let bugDetail = try #require(book.recipe(named: "bug-detail"))
        #expect(bugDetail.size.text == "320x320" && bugDetail.mode == .fit && bugDetail.scales == [1, 2])
        let foodList = try #require(book.recipe(named: "food-list"))
        #expect(foodList.size.text == "60x60" && foodList.mode == .fill && foodList.scales == [1, 2])
        let foodDetail = try #require(book.recipe(named: "food-detail"))
        #expect(foodDetail.size.text == "320x480" && foodDetail.mode == .fit && foodDetail.scales == [1, 2])
        #expect(book.recipes(for: .bug).count == 2 && book.recipes(for: .food).count == 2)
    }

    @Test func aFileReplacesADefaultByNameAndAddsNewRecipes() throws {
        let json = """
            {"recipes": [
              {"name": "bug-list", "record": "bug", "kind": "list", "size": "50x50", "scales": [2]},
              {"name": "food-hero", "record": "food", "kind": "detail", "size": "83.5x120", "mode": "fit", "format": "png"}
            ]}
            """
        let book = try RecipeBook.decode(Data(json.utf8), path: "r.json")
        #expect(book.recipes.map(\.name) == ["bug-list", "bug-detail", "food-list", "food-detail", "food-hero"])
        #expect(book.recipe(named: "bug-list")?.size.text == "50x50")
        #expect(book.recipe(named: "bug-list")?.scales == [2])
        let hero = try #require(book.recipe(named: "food-hero"))
        #expect(hero.format == .png && hero.quality == 85 && hero.scales == [1, 2])
    }

    @Test func replaceDefaultsKeepsOnlyTheFilesRecipes() throws {
        let json =
            #"{"replaceDefaults": true, "recipes": [{"name": "x", "record": "bug", "kind": "list", "size": "10x10"}]}"#
        #expect(try RecipeBook.decode(Data(json.utf8), path: "r.json").recipes.map(\.name) == ["x"])
    }

    @Test(arguments: [
        (
            #"{"recipes": [{"name": "a", "record": "bug", "kind": "list", "size": "1x1"}, {"name": "b", "record": "bug", "kind": "list", "size": "1x1", "quality": 120}]}"#,
            "recipes[1]: quality 120 is not between 1 and 100"
        ),
        (#"{"recipes": [{"name": "a", "record": "bug", "kind": "list"}]}"#, "recipes[0]: missing 'size'"),
        (#"{"recipes": [{"name": "a", "record": "cat", "kind": "list", "size": "1x1"}]}"#, "recipes[0]: 'record'"),
        (
            #"{"recipes": [{"name": "a", "record": "bug", "kind": "list", "size": "big"}]}"#,
            "recipes[0]: 'size': size 'big'"
        ),
        (
            #"{"recipes": [{"name": "a", "record": "bug", "kind": "list", "size": "1x1"}, {"name": "a", "record": "bug", "kind": "list", "size": "2x2"}]}"#,
            "recipes[1]: another recipe is already named 'a'"
        ),
        (#"{"recipes": 3}"#, "'recipes' should be a list"),
        ("not json", "not valid JSON"),
    ])
    func aBadFileIsRejectedNamingTheEntry(json: String, expected: String) {
        let error = catalogError { _ = try RecipeBook.decode(Data(json.utf8), path: "r.json") }
        guard case .invalidDocument(let path, let reason) = error else {
            Issue.record("expected invalidDocument, got \(String(describing: error))")
            return
        }
        #expect(path == "r.json")
        #expect(reason.hasPrefix(expected), "\(reason)")
    }

    @Test func loadingAMissingFileIsAnIOError() throws {
        let workspace = try TestWorkspace()
        let error = catalogError { _ = try RecipeBook.load(path: workspace.path("none.json")) }
        guard case .io = error else {
            Issue.record("expected io, got \(String(describing: error))")
            return
        }
    }

    @Test func twoRecipesWithOneNameCannotShareABook() throws {
        let a = try Recipe(name: "a", recordKind: .bug, outputKind: .list, width: 1, height: 1)
        #expect(throws: CatalogError.self) { try RecipeBook(recipes: [a, a]) }
    }
}
