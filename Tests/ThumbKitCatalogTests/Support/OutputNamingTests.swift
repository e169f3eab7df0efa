// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct OutputNamingTests {
    @Test(arguments: [
        ("Potato Bug", "potato-bug"),
        ("../../etc/passwd", "etc-passwd"),
        ("", "untitled"),
        ("   ", "untitled"),
        (".hidden", "hidden"),
        ("日本語", "untitled"),
        ("Crème Brûlée", "creme-brulee"),
        ("--A__b--", "a-b"),
        ("CON", "con"),
        ("a\u{0}b/c\\d", "a-b-c-d"),
    ])
    func slugsAreLowerCaseASCIILettersDigitsAndDashes(title: String, slug: String) {
        #expect(OutputNaming.slug(title) == slug)
    }

    @Test func aVeryLongTitleIsCutToFortyCharactersWithoutATrailingDash() {
        let slug = OutputNaming.slug(String(repeating: "abcdefghi ", count: 1000))
        #expect(slug.count <= OutputNaming.maxSlugLength)
        #expect(!slug.hasSuffix("-"))
        #expect(slug.hasPrefix("abcdefghi-abcdefghi"))
    }

    static let hostileTitles = [
        "../../etc/passwd", "", ".hidden", "日本語", String(repeating: "x", count: 10_000), "/absolute", "..", ".",
        "a/../../b", "\u{0}", "~root", "$(rm -rf /)", "C:\\Windows", "name\nwith\nnewlines",
    ]

    @Test(arguments: hostileTitles)
    func hostileTitlesGiveSafePathsInsideTheOutputFolder(title: String) throws {
        let recipe = try #require(RecipeBook.defaults.recipe(named: "bug-list"))
        for scale in recipe.scales {
            let path = OutputNaming.path(for: .bug(12), title: title, recipe: recipe, scale: scale)
            #expect(OutputNaming.isSafeRelativePath(path), "\(path)")
            #expect(path.hasPrefix("bugs/12-"))
            #expect(!path.split(separator: "/").contains { $0.hasPrefix(".") })
            #expect(path.utf8.count < 120)
        }
    }

    @Test func titlesThatSlugTheSameStillGetDifferentPaths() throws {
        let recipe = try #require(RecipeBook.defaults.recipe(named: "bug-detail"))
        let a = OutputNaming.path(for: .bug(1), title: "Potato Bug", recipe: recipe, scale: 2)
        let b = OutputNaming.path(for: .bug(2), title: "potato-bug!", recipe: recipe, scale: 2)
        let c = OutputNaming.path(for: .bug(3), title: "日本語", recipe: recipe, scale: 2)
        let d = OutputNaming.path(for: .bug(4), title: "中文", recipe: recipe, scale: 2)
        #expect(OutputNaming.slug("Potato Bug") == OutputNaming.slug("potato-bug!"))
        #expect(Set([a, b, c, d]).count == 4)
        #expect(a == "bugs/1-potato-bug/bug-detail@2x.jpg")
    }

    @Test func recordKindsAndScalesNeverShareAPath() throws {
        let book = RecipeBook.defaults
        var paths = Set<String>()
        var count = 0
        for record in [RecordRef.bug(1), .food(1), .bug(2)] {
            for recipe in book.recipes(for: record.kind) {
                for scale in recipe.scales {
                    paths.insert(OutputNaming.path(for: record, title: "Same", recipe: recipe, scale: scale))
                    count += 1
                }
            }
        }
        #expect(paths.count == count)
        #expect(paths.contains("foods/1-same/food-list.jpg"))
        #expect(paths.contains("bugs/2-same/bug-list@3x.jpg"))
    }

    @Test(arguments: [
        ("bugs/1-a/list@2x.jpg", true), ("ratings/3.5@2x.png", true), ("", false), ("/etc/passwd", false),
        ("../x.jpg", false), ("bugs/../../x", false), ("bugs/.hidden.jpg", false), ("bugs//x.jpg", false),
        ("bugs/x.jpg/", false), ("bugs/日本.jpg", false), ("bugs/a b.jpg", false), ("bugs\\x.jpg", false),
    ])
    func onlyPlainRelativePathsCountAsSafe(path: String, safe: Bool) {
        #expect(OutputNaming.isSafeRelativePath(path) == safe)
    }
}
