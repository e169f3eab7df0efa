// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct RatingStripTests {
    static let red = RGBA(220, 20, 20)
    static let blue = RGBA(20, 20, 220)

    static func solid(_ width: Int, _ height: Int, _ color: RGBA) -> PixelBuffer {
        PixelBuffer(width: width, height: height, fill: color)
    }

    @Test(arguments: [6, 5, 1])
    func aSynthesisedHalfIconTakesTheLeftHalfOfTheFullIconAndTheRestOfTheEmptyOne(width: Int) {
        let half = RatingStrip.halfIcon(empty: Self.solid(width, 3, Self.blue), full: Self.solid(width, 3, Self.red))
        #expect(half.width == width && half.height == 3)
        for y in 0..<3 {
            for x in 0..<width {
                // Columns left of the middle are the full icon's; an odd middle column is empty.
                #expect(half[x, y] == (x < width / 2 ? Self.red : Self.blue), "(\(x), \(y))")
            }
        }
    }

    @Test func aSynthesisedHalfIconKeepsEachSidesAlpha() {
        var full = Self.solid(4, 1, Self.red)
        full[0, 0] = RGBA(220, 20, 20, 100)
        let empty = Self.solid(4, 1, .transparent)
        let half = RatingStrip.halfIcon(empty: empty, full: full)
        #expect(half[0, 0] == RGBA(220, 20, 20, 100))
        #expect(half[1, 0] == Self.red)
        #expect(half[2, 0] == .transparent && half[3, 0] == .transparent)
    }

    @Test(arguments: Rating.all)
    func theStripShowsFullHalfAndEmptyIconsWhereTheRatingSays(rating: Rating) throws {
        // Given 10 pt icons 3 pt apart, at @2x: 20 px icons with 6 px gaps.
        let style = try RatingStripStyle(iconSize: 10, spacing: 3, scales: [2])
        let icons = RatingIcons(empty: Self.solid(8, 8, Self.blue), full: Self.solid(8, 8, Self.red))
        // When
        let strip = RatingStrip.render(rating, icons: icons, style: style, scale: 2)
        // Then: 5 × 20 + 4 × 6 pixels wide, 20 high, icons at 0, 26, 52, 78, 104.
        #expect(strip.width == 124 && strip.height == 20)
        #expect(style.iconOrigins(scale: 2) == [0, 26, 52, 78, 104])
        for (index, x) in style.iconOrigins(scale: 2).enumerated() {
            let stars = rating.value - Double(index)
            let left = stars >= 0.5 ? Self.red : Self.blue
            let right = stars >= 1 ? Self.red : Self.blue
            #expect(strip[x + 4, 10] == left, "icon \(index) left")
            #expect(strip[x + 15, 10] == right, "icon \(index) right")
            if index < 4 { #expect(strip[x + 23, 10] == .transparent, "gap after icon \(index)") }
        }
    }

    @Test func statesCountFullThenHalfThenEmptyIcons() throws {
        #expect(RatingStrip.states(for: Rating(exactly: 3.5)!) == [.full, .full, .full, .half, .empty])
        #expect(RatingStrip.states(for: .zero) == Array(repeating: .empty, count: 5))
        #expect(RatingStrip.states(for: Rating(exactly: 5)!) == Array(repeating: .full, count: 5))
        #expect(RatingStrip.states(for: Rating(exactly: 0.5)!) == [.half, .empty, .empty, .empty, .empty])
    }

    @Test func aTranslucentIconIsCompositedOverTheBackgroundInPremultipliedForm() throws {
        let style = try RatingStripStyle(iconSize: 4, spacing: 0, scales: [1], background: .white)
        let icons = RatingIcons(
            empty: Self.solid(4, 4, RGBA(0, 0, 255, 0)), full: Self.solid(4, 4, RGBA(255, 0, 0, 128)))
        let strip = RatingStrip.render(Rating(exactly: 1)!, icons: icons, style: style, scale: 1)
        // 50 % red over opaque white is pink; the fully transparent empty icon leaves white
        // (a straight-alpha mix would have given its blue a say).
        #expect(strip[1, 1] == RGBA(255, 127, 127))
        #expect(strip[6, 1] == .white)
    }

    @Test func aGivenHalfIconIsUsedInsteadOfASplit() throws {
        let style = try RatingStripStyle(iconSize: 4, spacing: 0, scales: [1])
        let green = RGBA(0, 200, 0)
        let icons = RatingIcons(
            empty: Self.solid(4, 4, Self.blue), half: Self.solid(4, 4, green), full: Self.solid(4, 4, Self.red))
        let strip = RatingStrip.render(Rating(exactly: 1.5)!, icons: icons, style: style, scale: 1)
        #expect(strip[0, 0] == Self.red && strip[4, 0] == green && strip[7, 0] == green && strip[8, 0] == Self.blue)
    }

    @Test func renderAllMakesEveryRatingAtEveryScale() throws {
        let style = try RatingStripStyle(iconSize: 5, spacing: 1, scales: [3, 1])
        let icons = RatingIcons(empty: Self.solid(9, 9, Self.blue), full: Self.solid(7, 5, Self.red))
        let all = RatingStrip.renderAll(icons: icons, style: style)
        #expect(all.count == 11 * 2)
        #expect(all.map(\.rating) == Rating.all.flatMap { [$0, $0] })
        for strip in all {
            let size = style.stripSize(scale: strip.scale)
            #expect(strip.image.width == size.width && strip.image.height == size.height)
        }
        #expect(style.stripSize(scale: 3) == (width: 5 * 15 + 4 * 3, height: 15))
    }

    @Test(arguments: [
        (20.0, 4.0, [1, 2, 3], true),
        (0.5, 4.0, [1], false),
        (20.0, -1.0, [1], false),
        (20.0, 4.0, [], false),
        (20.0, 4.0, [5], false),
        (20.1234, 4.0, [1], false),
        (Double.nan, 4.0, [1], false),
    ])
    func styleValuesAreChecked(iconSize: Double, spacing: Double, scales: [Int], valid: Bool) {
        let error = catalogError { try RatingStripStyle(iconSize: iconSize, spacing: spacing, scales: scales) }
        #expect((error == nil) == valid)
        if let error { #expect(error.path == "ratingStrip") }
    }

    @Test func theIdentifierNamesEveryOption() throws {
        let base = try RatingStripStyle()
        let rating = Rating(exactly: 3.5)!
        #expect(
            base.identifier(for: rating, halfGiven: false)
                == "rating/v1?pt=20,gap=4,bg=#00000000,half=split,value=3.5")
        let variants = [
            try RatingStripStyle(iconSize: 21).identifier(for: rating, halfGiven: false),
            try RatingStripStyle(spacing: 4.5).identifier(for: rating, halfGiven: false),
            try RatingStripStyle(background: .white).identifier(for: rating, halfGiven: false),
            base.identifier(for: rating, halfGiven: true),
            base.identifier(for: Rating(exactly: 3)!, halfGiven: false),
        ]
        #expect(Set(variants + [base.identifier(for: rating, halfGiven: false)]).count == variants.count + 1)
    }

    @Test func aRecipeFileConfiguresTheStrip() throws {
        let json = ##"{"recipes": [], "ratingStrip": {"iconSize": 16, "spacing": 2.5, "background": "#ffffff"}}"##
        let book = try RecipeBook.decode(Data(json.utf8), path: "r.json")
        #expect(book.ratingStrip == (try RatingStripStyle(iconSize: 16, spacing: 2.5, background: .white)))
        #expect(RecipeBook.defaults.ratingStrip == RatingStripStyle.standard)
        let bad = #"{"recipes": [], "ratingStrip": {"iconSize": 0}}"#
        let error = catalogError { _ = try RecipeBook.decode(Data(bad.utf8), path: "r.json") }
        #expect(error?.reason.contains("iconSize 0.0 is not between 1 and 1000 points") == true)
    }
}
