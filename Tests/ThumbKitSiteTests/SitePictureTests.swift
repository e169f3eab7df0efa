// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitSite

/// WebP and AVIF outputs reach the site through `<picture>`, with the JPEG or PNG output of the
/// same kind as the `<img>` every browser shows.
struct SitePictureTests {
    /// The default recipes plus WebP (and optionally AVIF) twins of the bug list thumbnail.
    static func recipes(avif: Bool, jpeg: Bool = true) throws -> RecipeBook {
        var recipes = RecipeBook.defaults.recipes.filter { jpeg || $0.name != "bug-list" }
        recipes.append(
            try Recipe(
                name: "bug-list-webp", recordKind: .bug, outputKind: .list, width: 44, height: 44, scales: [1, 2],
                format: .webp, quality: 80))
        if avif {
            recipes.append(
                try Recipe(
                    name: "bug-list-avif", recordKind: .bug, outputKind: .list, width: 44, height: 44, scales: [1, 2],
                    format: .avif, quality: 50))
        }
        // A WebP list picture of another size is not the same picture: no <source> for it.
        recipes.append(
            try Recipe(
                name: "bug-list-big-webp", recordKind: .bug, outputKind: .list, width: 88, height: 88, scales: [1],
                format: .webp, quality: 80))
        return try RecipeBook(recipes: recipes)
    }

    static func site(_ recipes: RecipeBook) throws -> (BuildFixture, String, SiteReport) {
        let fixture = try BuildFixture(assets: true)
        let picture = try fixture.workspace.image("img/bug.png", seed: 3)
        try fixture.store.write { tx in
            try tx.addBug(title: "Scarab", rating: Rating(exactly: 3)!, image: try ImageRef.load(path: picture))
        }
        let report = fixture.builder(recipes).build()
        #expect(report.failures == [])
        let siteDirectory = fixture.workspace.path("site")
        let site = try SiteGenerator(store: fixture.store, outputDirectory: fixture.out).generate(into: siteDirectory)
        return (fixture, siteDirectory, site)
    }

    @Test func modernFormatsAreSourcesInFrontOfTheJPEGFallback() throws {
        let (fixture, siteDirectory, report) = try Self.site(Self.recipes(avif: true))
        defer { withExtendedLifetime(fixture) {} }
        #expect(report.warnings == [])
        let html = try String(contentsOfFile: siteDirectory + "/bugs/index.html", encoding: .utf8)
        let start = try #require(html.range(of: "<picture>"))
        let end = try #require(html.range(of: "</picture>", range: start.upperBound..<html.endIndex))
        let picture = String(html[start.upperBound..<end.lowerBound])
        // AVIF, then WebP, then the <img>: browsers take the first source they can show.
        let avif = try #require(picture.range(of: #"<source type="image/avif" srcset=""#))
        let webp = try #require(picture.range(of: #"<source type="image/webp" srcset=""#))
        let img = try #require(picture.range(of: "<img "))
        #expect(avif.lowerBound < webp.lowerBound && webp.lowerBound < img.lowerBound)
        #expect(!picture.contains("bug-list-big-webp"))
        // The <img> is the JPEG; every file named in the picture is in the site, in its format.
        let reader = try PageReader.read(siteDirectory + "/bugs/index.html")
        #expect(reader.elements.contains("picture") && reader.elements.contains("source"))
        let imgSrc = try #require(picture.range(of: #"src=""#)).upperBound
        #expect(picture[imgSrc...].prefix(while: { $0 != "\"" }).hasSuffix(".jpg"))
        var formats: [ImageFormat] = []
        for link in reader.links
            + reader.srcsets.flatMap({ $0.split(separator: ",").map { String($0.split(separator: " ")[0]) } })
        where link.hasPrefix("../images/bugs/") {
            let path = siteDirectory + "/bugs/" + link
            let bytes = try #require(FileManager.default.contents(atPath: path), "\(link) is not in the site")
            formats.append(try #require(ImageFormat.sniff(Array(bytes.prefix(32)))))
        }
        #expect(Set(formats) == [.jpeg, .webp, .avif])
    }

    @Test func withoutAModernTwinThereIsNoPictureElement() throws {
        let (fixture, siteDirectory, _) = try Self.site(.defaults)
        defer { withExtendedLifetime(fixture) {} }
        let html = try String(contentsOfFile: siteDirectory + "/bugs/index.html", encoding: .utf8)
        #expect(!html.contains("<picture>") && html.contains("<img class=\"thumb\""))
    }

    @Test func aModernPictureWithoutAJPEGOrPNGFallbackIsShownAndWarnedAbout() throws {
        let (fixture, siteDirectory, report) = try Self.site(Self.recipes(avif: false, jpeg: false))
        defer { withExtendedLifetime(fixture) {} }
        let html = try String(contentsOfFile: siteDirectory + "/bugs/index.html", encoding: .utf8)
        #expect(html.contains(".webp\""))
        #expect(report.warnings.count == 2)
        #expect(report.warnings.allSatisfy { $0.contains("no JPEG or PNG recipe") })
        // One line per recipe (its identifier names it), sorted.
        #expect(report.warnings.contains { $0.contains("bug-list-big-webp") })
        #expect(report.warnings.contains { $0.contains("bug-list-webp") && !$0.contains("big") })
    }
}
