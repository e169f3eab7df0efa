// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitSite

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads a generated page back with an XML parser (the pages are XML-compatible HTML5) and
/// collects its links, image sources and text.
final class PageReader: NSObject, XMLParserDelegate {
    var links: [String] = []
    var elements: [String] = []
    var text = ""
    var srcsets: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(elementName)
        for key in ["href", "src"] { if let value = attributes[key] { links.append(value) } }
        if let srcset = attributes["srcset"] {
            srcsets.append(srcset)
            // "a.jpg 1x, b.jpg 2x": every candidate's URL.
            links += srcset.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
        }
        if let alt = attributes["alt"] { text += alt + "\n" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    /// Parses the page at `path`; nil with the parser's error when it is not well formed.
    static func read(_ path: String) throws -> PageReader {
        let reader = PageReader()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
        parser.delegate = reader
        guard parser.parse() else {
            throw CatalogError.invalidDocument(
                path: path, reason: "\(parser.parserError.map { "\($0)" } ?? "parse error")")
        }
        return reader
    }
}

struct SiteGeneratorTests {
    static let hostile = #"<script>alert("x")</script> & 'Bug' ../../etc"#

    /// A built catalog on `backend` with a hostile bug title and category, and its site.
    static func site(_ backend: CatalogBackend) throws -> (BuildFixture, String, SiteReport) {
        let fixture = try BuildFixture(assets: true, backend: backend)
        let picture = try fixture.workspace.image("img/hostile.png", seed: 6)
        try fixture.store.write { tx in
            try tx.addBug(title: Self.hostile, rating: Rating(exactly: 4.5)!, image: try ImageRef.load(path: picture))
            try tx.addBug(title: "Zero", rating: .zero, image: try ImageRef.load(path: picture))
            try tx.addCategory("Fish & <Chips>")
            try tx.addFood(category: "Fish & <Chips>", name: "Cod \"Special\"", image: try ImageRef.load(path: picture))
            try tx.addCategory("Empty")
        }
        let report = fixture.builder().build()
        #expect(report.failures == [])
        let siteDirectory = fixture.workspace.path("site")
        let site = try SiteGenerator(store: fixture.store, outputDirectory: fixture.out).generate(into: siteDirectory)
        return (fixture, siteDirectory, site)
    }

    @Test(arguments: CatalogBackend.all) func everyPageParsesAndEveryLinkAndImageResolvesToAFile(
        backend: CatalogBackend
    ) throws {
        // Keep the fixture: its workspace goes with it.
        let (fixture, siteDirectory, report) = try Self.site(backend)
        defer { withExtendedLifetime(fixture) {} }
        let pages = OutputFolder(root: siteDirectory).files(in: [""], includeHidden: true).filter {
            $0.hasSuffix(".html")
        }
        #expect(pages.count == report.pages)
        // Index, bug list, food index, 4 bugs, 3 categories, 2 foods.
        #expect(pages.count == 3 + 4 + 3 + 2)
        var checked = 0
        for page in pages {
            let reader = try PageReader.read(siteDirectory + "/" + page)
            // The one script is the site's own file (dates and sizes in the reader's locale).
            #expect(reader.elements.filter { $0 == "script" }.count == 1, "\(page)")
            #expect(reader.links.contains { $0.hasSuffix(SiteText.scriptPath) }, "\(page)")
            let folder = ((siteDirectory + "/" + page) as NSString).deletingLastPathComponent
            for link in reader.links {
                #expect(!link.contains("://") && !link.hasPrefix("/"), "\(page): \(link) is not relative")
                let target = (folder as NSString).appendingPathComponent(link)
                #expect(FileManager.default.fileExists(atPath: target), "\(page): \(link) does not resolve")
                checked += 1
            }
        }
        #expect(checked > 50)
        #expect(report.missing == [])
    }

    @Test(arguments: CatalogBackend.all) func titlesAreEscapedAndShownExactly(backend: CatalogBackend) throws {
        let (fixture, siteDirectory, _) = try Self.site(backend)
        let bug = try #require(try fixture.store.read { try $0.bug(title: Self.hostile) })
        let detail = try PageReader.read(siteDirectory + "/bugs/\(bug.id).html")
        #expect(detail.text.contains(Self.hostile))
        let list = try PageReader.read(siteDirectory + "/bugs/index.html")
        #expect(list.text.contains(Self.hostile) && list.text.contains("4.5 out of 5"))
        // A rating of 0 is zero stars, not "not rated" (issue 12 item 26).
        #expect(list.text.contains("0 out of 5") && !list.text.contains("not rated"))
        let foods = try PageReader.read(siteDirectory + "/foods/index.html")
        #expect(foods.text.contains("Fish & <Chips>"))
        let html = try String(contentsOfFile: siteDirectory + "/bugs/index.html", encoding: .utf8)
        #expect(!html.contains("<script>"))
    }

    @Test(arguments: CatalogBackend.all) func imagesHaveEveryScaleInTheirSrcset(backend: CatalogBackend) throws {
        let (fixture, siteDirectory, _) = try Self.site(backend)
        defer { withExtendedLifetime(fixture) {} }
        let list = try PageReader.read(siteDirectory + "/bugs/index.html")
        // Each bug: a thumbnail and a rating strip, both @1x, @2x and @3x.
        #expect(list.srcsets.count == 4 * 2)
        for srcset in list.srcsets {
            #expect(srcset.hasSuffix(" 3x") && srcset.contains(" 1x, ") && srcset.contains(" 2x, "), "\(srcset)")
        }
        let food = try PageReader.read(siteDirectory + "/foods/1.html")
        #expect(food.srcsets.count == 1 && food.srcsets[0].contains("food-detail") && food.srcsets[0].hasSuffix(" 2x"))
    }

    @Test(arguments: CatalogBackend.all) func aSecondRunDropsPagesAndImagesNoLongerWanted(backend: CatalogBackend)
        throws
    {
        let (fixture, siteDirectory, first) = try Self.site(backend)
        let bug = try #require(try fixture.store.read { try $0.bug(title: Self.hostile) })
        try fixture.store.write { _ = try $0.deleteBug(id: bug.id) }
        _ = fixture.builder().build()
        let second = try SiteGenerator(store: fixture.store, outputDirectory: fixture.out).generate(into: siteDirectory)
        #expect(second.pages == first.pages - 1)
        #expect(!FileManager.default.fileExists(atPath: siteDirectory + "/bugs/\(bug.id).html"))
        let images = OutputFolder(root: siteDirectory).files(in: ["images"], includeHidden: true)
        #expect(images.count == second.images)
        #expect(images.allSatisfy { !$0.contains("/\(bug.id)-") || !$0.hasPrefix("images/bugs/") })
    }
}
