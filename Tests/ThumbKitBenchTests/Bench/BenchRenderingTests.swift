// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport
import ThumbKitQuality

@testable import ThumbKitBench
@testable import ThumbKitCatalog

struct BenchRenderingTests {
    @Test func theTableHasOneRowPerToolWithRatiosAndDashesForMissingQuality() throws {
        let text = BenchTextRenderer.render(BenchReportTests.sample())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("bug-thumb · jpeg set") })
        #expect(lines[heading].hasSuffix("40 images, 280.0 MP"))
        let header = lines[heading + 1]
        for column in BenchTextRenderer.headers { #expect(header.contains(column), "\(column)") }
        let rows = lines[(heading + 3)...(heading + 5)]
        #expect(
            rows.map { $0.split(separator: " ").first.map(String.init) } == [
                "thumbkit", "vipsthumbnail", "floor-djpeg",
            ])
        let ours = lines[heading + 3]
        #expect(ours.contains(" 30.0 ") && ours.contains("1.20 / 1.33 / 1.50") && ours.contains("80 MiB"))
        #expect(ours.contains("0.9300/0.8800") && ours.contains("31.20/25.10"))
        #expect(ours.hasSuffix("1.00"))
        #expect(lines[heading + 4].hasSuffix("1.50") && lines[heading + 4].contains("inf/inf"))
        #expect(lines[heading + 5].contains("—") && lines[heading + 5].hasSuffix("0.75"))
        #expect(
            text.contains(
                "note: vipsthumbnail: 37 identical to the reference (left out of PSNR), 3 size mismatches (not scored)")
        )
        #expect(text.contains("thumbkit runs at 1.50× vipsthumbnail"))
        #expect(text.contains("thumbkit reaches 75 % of the floor-djpeg speed (decode alone); 72 % by CPU time"))
        #expect(text.hasSuffix("\n") && !text.hasSuffix("\n\n"))
    }

    @Test func everyRowOfATableHasTheSameWidth() throws {
        let lines = BenchTextRenderer.render(BenchReportTests.sample()).split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("bug-thumb · jpeg set") })
        let table = lines[(heading + 1)...(heading + 5)]
        #expect(table.allSatisfy { $0.hasPrefix("  ") })
        #expect(Set(table.map(\.count)).count == 1)
        #expect(lines[heading + 6].hasPrefix("  note:"))
    }

    @Test func fittedToAWidthTheTableKeepsItsMainColumnsAndListsTheRestBelow() throws {
        let report = BenchReportTests.sampleWithCatalogBuild()
        let whole = BenchTextRenderer.render(report).split(separator: "\n").map(String.init)
        #expect(whole.contains { $0.count > 100 })  // what an 80-100 column terminal wrapped
        for width in [100, 80] {
            let text = BenchTextRenderer.render(report, width: width)
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { $0.count <= width }, "\(lines.filter { $0.count > width })")
            let heading = try #require(lines.firstIndex { $0.hasPrefix("bug-thumb · jpeg set") })
            let header = lines[heading + 1].split(separator: " ").joined(separator: " ")
            #expect(header == "tool img/s peak RSS SSIM mean/min thumbkit ÷")
            // Every figure is still there, below the table.
            #expect(text.contains("  thumbkit: MP/s 210.0 · wall s min/med/max 1.20 / 1.33 / 1.50 · CPU s 2.50"))
            #expect(text.contains("PSNR mean/min 31.20/25.10"))
        }
        // A table that fits is left whole.
        let wide = BenchTextRenderer.render(report, width: 400)
        #expect(wide == BenchTextRenderer.render(report))
    }

    @Test func aToolThatCropsOffCentreSaysSoInPixelsApartFromItsQuality() throws {
        var report = BenchReportTests.sample()
        report.jobs[0].tools[1].cropGeometry = .wholePixel
        report.jobs[0].tools[1].centringOffsetPixels = 0.5
        let text = BenchTextRenderer.render(report)
        #expect(text.contains("crops at whole output pixels, up to 0.50 px off the exact centre"))
        #expect(text.contains("cut with each tool's own crop geometry"))
    }

    @Test func aCatalogBuildShowsItsCountsAndNoQualityOrRatioColumns() throws {
        let text = BenchTextRenderer.render(BenchReportTests.sampleWithCatalogBuild())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("icons · demo catalog · ") })
        #expect(lines[heading].hasSuffix("164 images written from 29 source pictures, 12.2 MP decoded"))
        let header = lines[heading + 1].split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(header == "tool img/s MP/s wall s min/med/max CPU s peak RSS")
        let ours = lines[heading + 3]
        #expect(ours.hasPrefix("  thumbkit") && ours.contains("328.0") && ours.contains("24.3"))
        #expect(ours.contains("0.45 / 0.50 / 0.60") && ours.hasSuffix("55 MiB") && !ours.contains("—"))
        #expect(lines[heading + 4].contains("img/s: images written per second"))
        // The resize job's block and the quality footnote are still there.
        #expect(text.contains("bug-thumb · jpeg set") && text.contains("SSIM/PSNR: mean/worst"))
    }

    @Test func aRunOfTheCatalogBuildAloneLeavesOutTheCorpusAndTheQualityNotes() {
        var report = BenchReportTests.sample()
        report.jobs = [BenchReportTests.catalogBuildJob()]
        let text = BenchTextRenderer.render(report)
        #expect(text.contains("1 warm-up, -j 2\n"))
        #expect(!text.contains("corpus") && !text.contains("SSIM") && !text.contains("thumbkit ÷"))
        let html = BenchHTMLRenderer.render(report)
        #expect(Self.structureProblems(html) == [])
        #expect(html.contains("<h2>icons · demo catalog</h2>"))
        #expect(html.contains("164 images written from 29 source pictures, 12.2 MP decoded per run"))
        // One throughput chart, no quality chart or columns.
        #expect(html.components(separatedBy: "<svg ").count - 1 == 1)
        #expect(!html.contains("SSIM") && !html.contains("thumbkit ÷"))
    }

    /// Problems with the markup's structure: every element closed in order (or written
    /// self-closing, `<rect/>`), one root, and every `&` starting a known entity. (FoundationXML's
    /// parser here accepts unclosed elements, so the check is done by hand.)
    static func structureProblems(_ html: String) -> [String] {
        var problems: [String] = []
        var stack: [String] = []
        var roots = 0
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "&" {
                let rest = html[index...]
                if !["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains(where: { rest.hasPrefix($0) }) {
                    problems.append("bare & at \(html.distance(from: html.startIndex, to: index))")
                }
            } else if character == "<" {
                guard let end = html[index...].firstIndex(of: ">") else {
                    problems.append("unterminated tag")
                    break
                }
                let body = html[html.index(after: index)..<end]
                let name = String(body.drop { $0 == "/" }.prefix { !$0.isWhitespace && $0 != "/" })
                if body.hasPrefix("!") {
                    // <!DOCTYPE html>
                } else if body.hasPrefix("/") {
                    if stack.popLast() != name { problems.append("</\(name)> closes the wrong element") }
                } else if body.hasSuffix("/") {
                    if stack.isEmpty { roots += 1 }
                } else {
                    if stack.isEmpty { roots += 1 }
                    stack.append(name)
                }
                index = end
            }
            index = html.index(after: index)
        }
        if !stack.isEmpty { problems.append("unclosed: \(stack.joined(separator: ", "))") }
        if roots != 1 { problems.append("\(roots) root elements") }
        return problems
    }

    @Test func theHTMLPageIsWellFormedWithInlineSVGChartsAndNoScript() {
        let html = BenchHTMLRenderer.render(BenchReportTests.sample())
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.hasSuffix("</html>\n"))
        #expect(Self.structureProblems(html) == [])
        // The check can fail.
        #expect(Self.structureProblems("<html><p></html>") == ["</html> closes the wrong element", "unclosed: html"])
        #expect(Self.structureProblems("<a>x & y</a><b/>") == ["bare & at 5", "2 root elements"])
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.lowercased().contains("javascript:"))
        #expect(!html.contains(" onload=") && !html.contains(" onclick="))
        // One throughput chart and one quality chart for the one job.
        #expect(html.components(separatedBy: "<svg ").count - 1 == 2)
        #expect(html.components(separatedBy: "</svg>").count - 1 == 2)
        // Text from the report is escaped.
        #expect(html.contains("Test CPU &lt;fast&gt; &amp; cheap"))
    }

    @Test func theLongestBarBelongsToTheLargestValue() {
        let svg = BenchHTMLRenderer.chart(
            title: "t", bars: [("a", .ours, 30), ("b", .peer, 15), ("c", .floor, 60)], digits: 1)
        #expect(svg.contains("class=\"ours\" fill=\"#1f6feb\" x=\"150.0\" y=\"12.0\" width=\"190.0\""))
        #expect(svg.contains("class=\"peer\" fill=\"#8c959f\" x=\"150.0\" y=\"34.0\" width=\"95.0\""))
        #expect(svg.contains("class=\"floor\" fill=\"#d0d7de\" x=\"150.0\" y=\"56.0\" width=\"380.0\""))
        #expect(svg.contains("<figcaption>t</figcaption>"))
    }

    @Test func qualityBarsStartBelowTheWorstScoreAndSaySo() {
        let svg = BenchHTMLRenderer.chart(
            title: "q", bars: [("a", .ours, 0.95), ("b", .peer, 0.85)], digits: 4, baseline: 0.8)
        #expect(svg.contains("width=\"380.0\""))  // 0.95: the whole length
        #expect(svg.contains("width=\"126.7\""))  // 0.85: a third of it
        #expect(svg.contains("<figcaption>q; bars start at 0.80</figcaption>"))
        let page = BenchHTMLRenderer.render(BenchReportTests.sample())
        // The sample's worst mean SSIM is 0.89: bars start at 0.85.
        #expect(page.contains("bars start at 0.85"))
    }

    @Test func escapingCoversEveryMarkupCharacter() {
        #expect(HTMLText.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
    }

    @Test func chartTextIsEscapedByTheSharedRuleControlCharactersIncluded() {
        let svg = BenchHTMLRenderer.chart(title: "t\u{1}<", bars: [("a&\u{7F}b", .ours, 1)], digits: 1)
        #expect(svg.contains(">a&amp;\u{FFFD}b</text>"))
        #expect(svg.contains("<figcaption>t\u{FFFD}&lt;</figcaption>"))
        #expect(!svg.unicodeScalars.contains("\u{1}") && !svg.unicodeScalars.contains("\u{7F}"))
    }
}
