// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct RecipeTests {
    static func base() throws -> Recipe {
        try Recipe(
            name: "bug-list", recordKind: .bug, outputKind: .list, width: 44, height: 44, mode: .fill,
            scales: [1, 2, 3])
    }

    @Test func theIdentifierSpellsOutEveryOption() throws {
        #expect(
            try Self.base().identifier
                == "recipe/v2?name=bug-list,record=bug,kind=list,pt=44x44,mode=fill,scales=1-2-3,fmt=jpeg,q=85")
    }

    /// Each row changes exactly one option of `base()`.
    static let variants: [(String, @Sendable () throws -> Recipe)] = [
        (
            "name",
            {
                try Recipe(
                    name: "bug-list2", recordKind: .bug, outputKind: .list, width: 44, height: 44, scales: [1, 2, 3])
            }
        ),
        (
            "record",
            {
                try Recipe(
                    name: "bug-list", recordKind: .food, outputKind: .list, width: 44, height: 44, scales: [1, 2, 3])
            }
        ),
        (
            "kind",
            {
                try Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .detail, width: 44, height: 44, scales: [1, 2, 3])
            }
        ),
        (
            "width",
            {
                try Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .list, width: 44.5, height: 44, scales: [1, 2, 3])
            }
        ),
        (
            "height",
            {
                try Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .list, width: 44, height: 45, scales: [1, 2, 3])
            }
        ),
        (
            "fraction",
            {
                try Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .list, width: 44.001, height: 44, scales: [1, 2, 3])
            }
        ),
        (
            "mode",
            {
                try Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .list, width: 44, height: 44, mode: .fit,
                    scales: [1, 2, 3])
            }
        ),
        (
            "scales",
            {
                try Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .list, width: 44, height: 44, scales: [1, 2])
            }
        ),
        (
            "format",
            {
                try Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .list, width: 44, height: 44, scales: [1, 2, 3],
                    format: .png)
            }
        ),
        (
            "quality",
            {
                try Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .list, width: 44, height: 44, scales: [1, 2, 3],
                    quality: 86)
            }
        ),
    ]

    @Test(arguments: variants.map(\.0))
    func changingAnyOneOptionChangesTheIdentifier(option: String) throws {
        let make = try #require(Self.variants.first { $0.0 == option }?.1)
        let changed = try make()
        #expect(changed != (try Self.base()))
        #expect(changed.identifier != (try Self.base()).identifier)
    }

    @Test func everyVariantHasItsOwnIdentifier() throws {
        let identifiers = try Self.variants.map { try $0.1().identifier } + [try Self.base().identifier]
        #expect(Set(identifiers).count == identifiers.count)
    }

    @Test(arguments: [(83.5, "83.5"), (44, "44"), (0.125, "0.125"), (100.05, "100.05"), (1e4, "10000")])
    func pointSizesAreFormattedExplicitly(value: Double, text: String) throws {
        let recipe = try Recipe(name: "r", recordKind: .food, outputKind: .detail, width: value, height: value)
        #expect(recipe.size.text == "\(text)x\(text)")
        #expect(recipe.identifier.contains("pt=\(text)x\(text),"))
    }

    @Test func scalesAreSortedAndDeduplicatedSoEqualRecipesShareAnIdentifier() throws {
        let a = try Recipe(name: "r", recordKind: .bug, outputKind: .list, width: 10, height: 10, scales: [3, 1, 2, 2])
        let b = try Recipe(name: "r", recordKind: .bug, outputKind: .list, width: 10, height: 10, scales: [1, 2, 3])
        #expect(a == b)
        #expect(a.identifier == b.identifier)
    }

    @Test(arguments: [
        ("", 10.0, [1], 85, "name"), ("Bug List", 10, [1], 85, "name"), ("../x", 10, [1], 85, "name"),
        ("r", 0, [1], 85, "width"), ("r", -5, [1], 85, "width"), ("r", .nan, [1], 85, "width"),
        ("r", 10.0001, [1], 85, "decimals"), ("r", 10, [], 85, "scales"), ("r", 10, [0], 85, "scales"),
        ("r", 10, [5], 85, "scales"), ("r", 10, [1], 0, "quality"), ("r", 10, [1], 101, "quality"),
    ])
    func badOptionsAreRejectedWithTheirName(name: String, width: Double, scales: [Int], quality: Int, word: String) {
        let error = catalogError {
            _ = try Recipe(
                name: name, recordKind: .bug, outputKind: .list, width: width, height: 10, scales: scales,
                quality: quality)
        }
        #expect(error?.reason.contains(word) == true, "\(String(describing: error))")
    }

    @Test func pixelSizesRoundFractionalPointsPerScale() throws {
        let recipe = try Recipe(
            name: "icon", recordKind: .app, outputKind: .icon, width: 83.5, height: 83.5, scales: [1, 2, 3])
        #expect(recipe.pixelSize(scale: 1) == (84, 84))
        #expect(recipe.pixelSize(scale: 2) == (167, 167))
        #expect(recipe.pixelSize(scale: 3) == (251, 251))
        let options = recipe.resizeOptions(scale: 2)
        #expect(options.width == 167 && options.mode == .fill)
        #expect(recipe.encodeOptions.format == .jpeg && recipe.encodeOptions.quality == 85)
    }

    @Test func aRecipeRoundTripsThroughItsJSONForm() throws {
        let recipe = try Recipe(
            name: "food-hero", recordKind: .food, outputKind: .detail, width: 83.5, height: 120, mode: .fit,
            scales: [2], format: .png, quality: 70)
        let data = try JSONEncoder().encode(recipe)
        #expect(try JSONDecoder().decode(Recipe.self, from: data) == recipe)
    }
}
