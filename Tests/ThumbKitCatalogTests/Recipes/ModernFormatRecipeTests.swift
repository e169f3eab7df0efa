// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

/// Recipes write WebP and AVIF (with their own default quality) but refuse HEIC; the inbox
/// takes .webp, .heic, .heif and .avif images.
struct ModernFormatRecipeTests {
    static func recipe(_ format: String, quality: String = "") throws -> Recipe {
        let json =
            #"{"name": "list", "record": "bug", "kind": "list", "size": "44x44", "format": ""#
            + format + #"""# + quality + "}"
        return try JSONDecoder().decode(Recipe.self, from: Data(json.utf8))
    }

    @Test func recipesTakeWebPAndAVIFWithTheirDefaultQuality() throws {
        let webp = try Self.recipe("webp")
        #expect(webp.encodeOptions.format == .webp && webp.encodeOptions.quality == 80)
        let avif = try Self.recipe("avif")
        #expect(avif.encodeOptions.format == .avif && avif.encodeOptions.quality == 50)
        #expect(try Self.recipe("avif", quality: #", "quality": 40"#).quality == 40)
        #expect(throws: DecodingError.self) { _ = try Self.recipe("heic") }
        #expect(throws: DecodingError.self) { _ = try Self.recipe("gif") }
    }

    @Test(arguments: ["webp", "heic", "heif", "avif", "AVIF"])
    func theInboxTakesModernImages(_ ext: String) {
        #expect(InboxLayout.classify("bugs/Potato Bug.\(ext)") == .image(.bug(title: "Potato Bug")))
        #expect(InboxLayout.classify("foods/soup/Leek.\(ext)") == .image(.food(category: "soup", name: "Leek")))
    }
}
