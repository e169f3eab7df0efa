// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// The `--html` page: one section per job and set with its table and two bar charts
/// (throughput in images/s, and mean SSIM) drawn as inline SVG. No JavaScript and no outside
/// files; the markup is also well-formed XML, so it can be checked with any XML parser. Text is
/// escaped by `HTMLText.escape` (ThumbKitCatalog), the escaper the static site uses too.
package enum BenchHTMLRenderer {
    /// The whole page.
    package static func render(_ report: BenchReport) -> String {
        let env = report.environment
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>thumbkit bench \(HTMLText.escape(env.gitCommit.prefix(12)))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; color: #222; }
            table { border-collapse: collapse; margin: 0.5em 0 1em; }
            th, td { padding: 0.2em 0.6em; text-align: right; border-bottom: 1px solid #ddd; }
            th:first-child, td:first-child { text-align: left; }
            svg text { font: 12px system-ui, sans-serif; fill: #222; }
            </style>
            </head>
            <body>
            <h1>thumbkit bench</h1>
            <p>thumbkit \(HTMLText.escape(env.thumbkitVersion)), commit \(HTMLText.escape(env.gitCommit)), \
            \(HTMLText.escape(env.cpuModel)), \(env.cores) cores, \(HTMLText.escape(env.os)).
            \(report.settings.runs) timed runs per tool after \(report.settings.warmupRuns) warm-up,
            -j \(report.settings.parallelJobs).</p>

            """
        for job in report.jobs { html += section(job) }
        html += "<h2>Tools</h2>\n<ul>\n"
        for peer in env.tools {
            html += "<li><b>\(HTMLText.escape(peer.tool.rawValue))</b>: \(HTMLText.escape(peer.version))</li>\n"
        }
        html += "</ul>\n</body>\n</html>\n"
        return html
    }

    /// One job: heading, table, throughput chart, quality chart (a catalog build has no
    /// quality columns or chart: nothing to score it against).
    static func section(_ job: BenchReport.Job) -> String {
        let scored = job.kind == .resize
        var html =
            "<section>\n<h2>\(HTMLText.escape(job.name)) · \(HTMLText.escape(job.set)) "
            + "\(scored ? "set" : "catalog")</h2>\n"
        let megapixels = BenchTextRenderer.fixed(job.megapixels, 1)
        html +=
            scored
            ? "<p>\(HTMLText.escape(job.summary)); \(job.images) images, \(megapixels) MP.</p>\n"
            : "<p>\(HTMLText.escape(job.summary)); \(job.images) images written from \(job.sources) source pictures, "
                + "\(megapixels) MP decoded per run (a full build from a fresh copy of the catalog; "
                + "images/s counts images written, MP/s source megapixels decoded). Not scored for quality.</p>\n"
        html += "<table>\n<thead><tr>"
        let scoreHeaders = ["SSIM mean", "SSIM worst", "PSNR mean", "thumbkit ÷"]
        for header in ["tool", "images/s", "MP/s", "median wall s", "CPU s", "peak RSS"] + (scored ? scoreHeaders : [])
        {
            html += "<th>\(HTMLText.escape(header))</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for tool in job.tools {
            var cells = [
                BenchTextRenderer.fixed(tool.imagesPerSecond, 1), BenchTextRenderer.fixed(tool.megapixelsPerSecond, 1),
                BenchTextRenderer.fixed(tool.wallSeconds.median, 2), BenchTextRenderer.fixed(tool.cpuSeconds, 2),
                BenchTextRenderer.mebibytes(tool.peakRSSBytes),
            ]
            if scored {
                cells += [
                    tool.ssim.map { BenchTextRenderer.finite($0.mean, 4) } ?? "—",
                    tool.ssim.map { BenchTextRenderer.finite($0.min, 4) } ?? "—",
                    tool.psnr.map { BenchTextRenderer.finite($0.mean, 2) } ?? "—",
                    tool.speedRatio.map { BenchTextRenderer.fixed($0, 2) } ?? "—",
                ]
            }
            html +=
                "<tr><td>\(HTMLText.escape(tool.tool))</td>"
                + cells.map { "<td>\(HTMLText.escape($0))</td>" }.joined() + "</tr>\n"
        }
        html += "</tbody>\n</table>\n"
        let speed = job.tools.map { ($0.tool, $0.role, $0.imagesPerSecond) }
        html += chart(title: "Throughput, images/s (longer is better)", bars: speed, digits: 1)
        guard scored else { return html + "</section>\n" }
        let quality = job.tools.compactMap { tool in tool.ssim.map { (tool.tool, tool.role, $0.mean) } }
        if let worst = quality.map(\.2).filter(\.isFinite).min() {
            // SSIM figures sit close together near 1: start the bars a little below the worst
            // (at a multiple of 0.05) so the differences show, and say so in the caption.
            let baseline = max(0, ((worst - 0.02) * 20).rounded(.down) / 20)
            html += chart(
                title: "Mean SSIM against the reference (longer is better)", bars: quality, digits: 4,
                baseline: baseline)
        }
        return html + "</section>\n"
    }

    /// Bar colours: ThumbKit blue, peers grey, floors light grey (attributes, not CSS, so a
    /// chart copied out of the page keeps them).
    static func color(_ role: BenchTool.Role) -> String {
        switch role {
        case .ours: return "#1f6feb"
        case .peer: return "#8c959f"
        case .floor: return "#d0d7de"
        }
    }

    /// A horizontal bar chart: one labelled bar per tool, from `baseline` (0 unless the values
    /// crowd near the top) to the largest value.
    static func chart(
        title: String, bars: [(label: String, role: BenchTool.Role, value: Double)], digits: Int, baseline: Double = 0
    ) -> String {
        let labelWidth = 150.0
        let barSpace = 380.0
        let rowHeight = 22.0
        let width = labelWidth + barSpace + 80
        let height = rowHeight * Double(bars.count) + 30
        let largest = bars.map(\.value).filter(\.isFinite).max() ?? 0
        var svg =
            "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
        svg += "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\">\n"
        svg += "<title>\(HTMLText.escape(title))</title>\n"
        for (index, bar) in bars.enumerated() {
            let y = 10 + rowHeight * Double(index)
            let value = bar.value.isFinite ? max(baseline, bar.value) : baseline
            let length = largest > baseline ? barSpace * (value - baseline) / (largest - baseline) : 0
            svg += "<text x=\"0\" y=\"\(format(y + 14))\">\(HTMLText.escape(bar.label))</text>"
            svg += "<rect class=\"\(bar.role.rawValue)\" fill=\"\(color(bar.role))\" "
            svg += "x=\"\(format(labelWidth))\" y=\"\(format(y + 2))\" "
            svg += "width=\"\(format(length))\" height=\"\(format(rowHeight - 6))\"/>"
            svg += "<text x=\"\(format(labelWidth + length + 6))\" y=\"\(format(y + 14))\">"
            svg += "\(HTMLText.escape(BenchTextRenderer.finite(bar.value, digits)))</text>\n"
        }
        let caption = baseline > 0 ? "\(title); bars start at \(BenchTextRenderer.fixed(baseline, 2))" : title
        svg += "</svg>\n<figcaption>\(HTMLText.escape(caption))</figcaption>\n</figure>\n"
        return svg
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
