// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// The plain-text table `thumbkit bench` prints: per job and set, one row per tool with
/// throughput, wall time, CPU, memory, quality and ThumbKit's speed ÷ the tool's.
///
/// Numbers use a fixed, locale-independent format (the table is also pasted into issues and
/// compared across machines); ``BenchTextRenderer/render(_:width:)`` is pure, so tests can pin it.
///
/// With a `width`, a table wider than that keeps only tool, img/s, peak RSS, SSIM and
/// thumbkit ÷ (``narrowColumns``), and the other figures follow it, one line per tool; prose
/// wraps at the width. Without one, every table is printed whole.
package enum BenchTextRenderer {
    /// The whole table, ending with a newline; fitted to `width` columns when given.
    package static func render(_ report: BenchReport, width: Int? = nil) -> String {
        var lines: [String] = []
        let env = report.environment
        let settings = report.settings
        lines.append(
            "thumbkit bench \(env.thumbkitVersion) · commit \(env.gitCommit.prefix(12)) · \(env.cpuModel), \(env.cores) cores"
        )
        // A catalog build runs on the demo catalog: the corpus and the quality notes are about
        // the resize jobs only.
        let resizes = report.jobs.contains { $0.kind == .resize }
        lines.append(
            "\(settings.runs) timed run\(settings.runs == 1 ? "" : "s") per tool after \(settings.warmupRuns) warm-up, "
                + "-j \(settings.parallelJobs)\(resizes ? ", corpus \(settings.corpus)" : "")")
        for job in report.jobs {
            lines.append("")
            lines += render(job, linear: settings.linearLight, width: width)
        }
        if !env.tools.isEmpty {
            lines.append("")
            lines.append("Tools:")
            for peer in env.tools { lines.append("  \(pad(peer.tool.rawValue, 18)) \(peer.version)") }
        }
        guard resizes else { return lines.joined(separator: "\n") + "\n" }
        lines.append("")
        let prose = [
            "thumbkit ÷ = thumbkit's images/s divided by the tool's (above 1: thumbkit is faster; "
                + "for a floor, the share of the floor's speed thumbkit reaches).",
            "SSIM/PSNR: mean/worst against a Double Lanczos3 of the full-resolution decode, cut with each "
                + "tool's own crop geometry: the exact fractional crop for thumbkit and pillow, whole output "
                + "pixels for vips, ImageMagick and GraphicsMagick"
                + "\(settings.linearLight ? "; lin: against the same in linear light" : ""). "
                + "Where a crop sits off the exact centre, the notes say by how many pixels: geometry, not quality.",
            "peak RSS: the tool's own peak resident set, measured through GNU time (— without it).",
        ]
        for text in prose { lines += BenchTableLayout.wrap(text, width: width, indent: "  ") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The columns a resize table keeps when it does not fit: tool, img/s, peak RSS, SSIM and
    /// thumbkit ÷ (a catalog build keeps tool, img/s and peak RSS).
    static let narrowColumns = [0, 1, 5, 6, 8]

    static let headers = [
        "tool", "img/s", "MP/s", "wall s min/med/max", "CPU s", "peak RSS", "SSIM mean/min", "PSNR mean/min",
        "thumbkit ÷",
    ]

    /// The columns of a catalog build: no quality (nothing to score against) and no ratio (no
    /// peers).
    static let catalogBuildHeaders = Array(headers.prefix(6))

    /// One job's block: heading, table and notes; the table fitted to `width` when given.
    static func render(_ job: BenchReport.Job, linear: Bool, width: Int? = nil) -> [String] {
        let scored = job.kind == .resize
        var rows: [[String]] = [scored ? headers + (linear ? ["lin SSIM mean/min"] : []) : catalogBuildHeaders]
        for tool in job.tools {
            var row = [
                tool.tool, fixed(tool.imagesPerSecond, 1), fixed(tool.megapixelsPerSecond, 1),
                "\(fixed(tool.wallSeconds.min, 2)) / \(fixed(tool.wallSeconds.median, 2)) / \(fixed(tool.wallSeconds.max, 2))",
                fixed(tool.cpuSeconds, 2), mebibytes(tool.peakRSSBytes),
            ]
            if scored {
                row += [
                    pair(tool.ssim, digits: 4), pair(tool.psnr, digits: 2), tool.speedRatio.map { fixed($0, 2) } ?? "—",
                ]
                if linear { row.append(pair(tool.ssimLinear, digits: 4)) }
            }
            rows.append(row)
        }
        let all = Array(rows[0].indices)
        var kept = all
        if let width, 2 + BenchTableLayout.rowWidth(BenchTableLayout.columnWidths(rows)) > width {
            kept = narrowColumns.filter { $0 < rows[0].count }
        }
        let shown = BenchTableLayout.select(rows, columns: kept)
        let widths = BenchTableLayout.columnWidths(shown)
        var lines = BenchTableLayout.wrap(heading(job), width: width, indent: "  ")
        for (index, row) in shown.enumerated() {
            let cells = row.enumerated().map { column, cell in
                column == 0 ? pad(cell, widths[column]) : padLeft(cell, widths[column])
            }
            lines.append("  " + cells.joined(separator: "  "))
            if index == 0 {
                lines.append("  " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
            }
        }
        let hidden = all.filter { !kept.contains($0) }
        if !hidden.isEmpty {
            // The figures left out of the table, one line per tool (or --wide for one table).
            for row in rows.dropFirst() {
                lines += BenchTableLayout.join(
                    hidden.map { "\(rows[0][$0]) \(row[$0])" }, separator: " · ", lead: "  \(row[0]): ", width: width,
                    indent: "      ")
            }
        }
        lines += notes(job).flatMap { BenchTableLayout.wrap($0, width: width, indent: "      ") }
        return lines
    }

    /// `bug-thumb · jpeg set · … · 40 images, 281.5 MP`; a catalog build says what it counts.
    static func heading(_ job: BenchReport.Job) -> String {
        switch job.kind {
        case .resize:
            return
                "\(job.name) · \(job.set) set · \(job.summary) · \(job.images) images, \(fixed(job.megapixels, 1)) MP"
        case .catalogBuild:
            return "\(job.name) · \(job.set) catalog · \(job.summary) · \(job.images) images written from "
                + "\(job.sources) source pictures, \(fixed(job.megapixels, 1)) MP decoded"
        }
    }

    /// Size mismatches, missing outputs and failures, then how ThumbKit compares.
    static func notes(_ job: BenchReport.Job) -> [String] {
        var lines: [String] = []
        for tool in job.tools {
            var parts: [String] = []
            if tool.identicalOutputs > 0 {
                parts.append("\(tool.identicalOutputs) identical to the reference (left out of PSNR)")
            }
            if tool.sizeMismatches > 0 {
                parts.append("\(tool.sizeMismatches) size mismatch\(tool.sizeMismatches == 1 ? "" : "es") (not scored)")
            }
            if tool.missingOutputs > 0 {
                parts.append("\(tool.missingOutputs) missing output\(tool.missingOutputs == 1 ? "" : "s")")
            }
            if tool.unreadableOutputs > 0 {
                parts.append("\(tool.unreadableOutputs) unreadable output\(tool.unreadableOutputs == 1 ? "" : "s")")
            }
            if let offset = tool.centringOffsetPixels, offset > 0.001 {
                parts.append(
                    "crops at whole output pixels, up to \(fixed(offset, 2)) px off the exact centre "
                        + "(scored against a reference cut the same way)")
            }
            if !parts.isEmpty { lines.append("  note: \(tool.tool): \(parts.joined(separator: ", "))") }
            for failure in tool.failures.prefix(3) { lines.append("  failed: \(tool.tool): \(failure)") }
        }
        if job.kind == .catalogBuild {
            lines.append(
                "  img/s: images written per second; MP/s: source megapixels decoded per second. "
                    + "Each run is a full build from a fresh copy of the catalog; not scored for quality.")
        }
        guard let ours = job.thumbkit else { return lines }
        var summary: [String] = []
        for tool in job.tools where tool.role == .peer {
            if let ratio = tool.speedRatio { summary.append("\(fixed(ratio, 2))× \(tool.tool)") }
        }
        if !summary.isEmpty { lines.append("  thumbkit runs at " + summary.joined(separator: ", ")) }
        for tool in job.tools where tool.role == .floor && tool.imagesPerSecond > 0 {
            let share = ours.imagesPerSecond / tool.imagesPerSecond * 100
            var line = "  thumbkit reaches \(fixed(share, 0)) % of the \(tool.tool) speed (decode alone)"
            if ours.cpuSeconds > 0 {
                line += "; \(fixed(tool.cpuSeconds / ours.cpuSeconds * 100, 0)) % by CPU time"
            }
            lines.append(line)
        }
        return lines
    }

    static func pair(_ quality: BenchReport.Quality?, digits: Int) -> String {
        guard let quality else { return "—" }
        return "\(finite(quality.mean, digits))/\(finite(quality.min, digits))"
    }

    static func finite(_ value: Double, _ digits: Int) -> String {
        value.isFinite ? fixed(value, digits) : "inf"
    }

    /// `value` with `digits` decimals, in the C locale.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// `82 MiB`; `—` when the peak is unknown (0: GNU time is not installed).
    static func mebibytes(_ bytes: Int) -> String {
        bytes > 0 ? "\(Int((Double(bytes) / 1_048_576).rounded())) MiB" : "—"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
