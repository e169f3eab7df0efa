// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

struct BenchReportTests {
    /// A small report: bug-thumb on the JPEG set with ThumbKit, one peer and one floor.
    static func sample() -> BenchReport {
        let environment = BenchReport.Environment(
            cpuModel: "Test CPU <fast> & cheap", cores: 2, os: "Debian GNU/Linux 12 (bookworm), Linux 6.1.0",
            machine: "Test CPU, 2 cores", thumbkitVersion: "0.1.0",
            gitCommit: "0123456789abcdef0123456789abcdef01234567",
            tools: [
                BenchPeer(tool: .thumbkit, executable: "/bin/thumbkit", version: "thumbkit 0.1.0"),
                BenchPeer(tool: .vipsthumbnail, executable: "/usr/bin/vipsthumbnail", version: "libvips 8.14.1"),
                BenchPeer(tool: .djpegFloor, executable: "/usr/bin/djpeg", version: "libjpeg-turbo version 2.1.5"),
            ])
        let settings = BenchReport.Settings(
            corpus: "/c", runs: 5, warmupRuns: 1, parallelJobs: 2, peers: true, limit: true, linearLight: false)
        let ours = BenchReport.ToolResult(
            tool: "thumbkit", role: .ours, imagesPerSecond: 30, megapixelsPerSecond: 210,
            wallSeconds: .init(min: 1.2, median: 4.0 / 3.0, max: 1.5), cpuSeconds: 2.5, peakRSSBytes: 80 << 20,
            ssim: .init(mean: 0.93, min: 0.88), psnr: .init(mean: 31.2, min: 25.1), scoredOutputs: 40, speedRatio: 1)
        let vips = BenchReport.ToolResult(
            tool: "vipsthumbnail", role: .peer, imagesPerSecond: 20, megapixelsPerSecond: 140,
            wallSeconds: .init(min: 1.9, median: 2, max: 2.4), cpuSeconds: 3.1, peakRSSBytes: 147 << 20,
            ssim: .init(mean: 0.89, min: 0.80), psnr: .init(mean: .infinity, min: .infinity), scoredOutputs: 37,
            identicalOutputs: 37, sizeMismatches: 3, speedRatio: 1.5)
        let floor = BenchReport.ToolResult(
            tool: "floor-djpeg", role: .floor, imagesPerSecond: 40, megapixelsPerSecond: 280,
            wallSeconds: .init(min: 1, median: 1, max: 1.1), cpuSeconds: 1.8, peakRSSBytes: 30 << 20, speedRatio: 0.75)
        let job = BenchReport.Job(
            name: "bug-thumb", set: "jpeg", summary: "fill-crop 88x88, JPEG q85", images: 40, megapixels: 280,
            outputFormat: "jpeg", tools: [ours, vips, floor])
        return BenchReport(
            date: Date(timeIntervalSince1970: 1_769_817_600), environment: environment, settings: settings, jobs: [job])
    }

    /// The `icons` job as a run reports it: ThumbKit alone, images counted as outputs.
    static func catalogBuildJob() -> BenchReport.Job {
        let ours = BenchReport.ToolResult(
            tool: "thumbkit", role: .ours, imagesPerSecond: 328, megapixelsPerSecond: 24.3,
            wallSeconds: .init(min: 0.45, median: 0.5, max: 0.6), cpuSeconds: 0.7, peakRSSBytes: 55 << 20)
        return BenchReport.Job(
            name: "icons", set: "demo", summary: "catalog build of the demo catalog (thumbs, rating strips, app icons)",
            kind: .catalogBuild, images: 164, imagesAre: .outputs, sources: 29, megapixels: 12.154368,
            outputFormat: "mixed", tools: [ours])
    }

    /// ``sample()`` with the catalog build after its resize job.
    static func sampleWithCatalogBuild() -> BenchReport {
        var report = sample()
        report.jobs.append(catalogBuildJob())
        return report
    }

    private static func json(_ report: BenchReport) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(report)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theJSONHasEveryKeyOfTheSchemaWithItsExactName() throws {
        let object = try Self.json(Self.sampleWithCatalogBuild())
        #expect(Set(object.keys) == ["format", "date", "environment", "settings", "jobs"])
        #expect(object["format"] as? Int == BenchReport.currentFormat)
        #expect(object["date"] as? String == "2026-01-31T00:00:00Z")

        let environment = try #require(object["environment"] as? [String: Any])
        for key in ["cpuModel", "cores", "os", "machine", "thumbkitVersion", "gitCommit", "tools"] {
            #expect(environment[key] != nil, "environment.\(key)")
        }
        let tools = try #require(environment["tools"] as? [[String: Any]])
        #expect(tools.map { $0["tool"] as? String } == ["thumbkit", "vipsthumbnail", "floor-djpeg"])
        #expect(tools.allSatisfy { $0["version"] is String && $0["executable"] is String })

        let settings = try #require(object["settings"] as? [String: Any])
        for key in ["corpus", "runs", "warmupRuns", "parallelJobs", "peers", "limit", "linearLight"] {
            #expect(settings[key] != nil, "settings.\(key)")
        }

        let jobs = try #require(object["jobs"] as? [[String: Any]])
        let jobKeys: Set = [
            "name", "set", "summary", "kind", "images", "imagesAre", "sources", "megapixels", "outputFormat", "tools",
            "corpusDigest",
        ]
        for job in jobs { #expect(Set(job.keys) == jobKeys, "keys of \(job["name"] ?? "?")") }
        let job = jobs[0]
        #expect(job["kind"] as? String == "resize" && job["imagesAre"] as? String == "inputs")
        #expect(job["images"] as? Int == 40 && job["sources"] as? Int == 40)
        // The catalog build: images are the files written, sources the pictures decoded, and
        // its one tool has every key, with no quality and no ratio.
        let icons = jobs[1]
        #expect(icons["name"] as? String == "icons" && icons["set"] as? String == "demo")
        #expect(icons["kind"] as? String == "catalogBuild" && icons["imagesAre"] as? String == "outputs")
        #expect(icons["images"] as? Int == 164 && icons["sources"] as? Int == 29)
        #expect(icons["megapixels"] as? Double == 12.154368 && icons["outputFormat"] as? String == "mixed")
        let built = try #require((icons["tools"] as? [[String: Any]])?.first)
        for key in ["ssim", "psnr", "ssimLinear", "psnrLinear", "speedRatio"] {
            #expect(built[key] is NSNull, "icons thumbkit.\(key)")
        }
        #expect(built["imagesPerSecond"] as? Double == 328 && built["scoredOutputs"] as? Int == 0)
        let results = try #require(job["tools"] as? [[String: Any]]) + [built]
        let required = [
            "tool", "role", "imagesPerSecond", "megapixelsPerSecond", "wallSeconds", "cpuSeconds", "peakRSSBytes",
            "ssim", "psnr", "ssimLinear", "psnrLinear", "scoredOutputs", "identicalOutputs", "sizeMismatches",
            "missingOutputs", "unreadableOutputs", "failures", "speedRatio", "cropGeometry", "centringOffsetPixels",
        ]
        for result in results {
            #expect(Set(result.keys) == Set(required), "keys of \(result["tool"] ?? "?")")
        }
        let ours = results[0]
        #expect(ours["imagesPerSecond"] as? Double == 30)
        let wall = try #require(ours["wallSeconds"] as? [String: Double])
        #expect(Set(wall.keys) == ["min", "median", "max"])
        let ssim = try #require(ours["ssim"] as? [String: Double])
        #expect(ssim == ["mean": 0.93, "min": 0.88])
        let psnr = try #require(ours["psnr"] as? [String: Double])
        #expect(Set(psnr.keys) == ["mean", "min"])
        #expect(ours["peakRSSBytes"] as? Int == 80 << 20)
    }

    @Test func missingQualityAndInfinitePSNRAreWrittenAsNull() throws {
        let object = try Self.json(Self.sample())
        let results = try #require(((object["jobs"] as? [[String: Any]])?.first?["tools"]) as? [[String: Any]])
        #expect(results[2]["ssim"] is NSNull && results[2]["psnr"] is NSNull)
        let vipsPSNR = try #require(results[1]["psnr"] as? [String: Any])
        #expect(vipsPSNR["mean"] is NSNull && vipsPSNR["min"] is NSNull)
    }

    @Test func theReportReadsBackAsItWasWritten() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let report = Self.sampleWithCatalogBuild()
        let decoded = try decoder.decode(BenchReport.self, from: try encoder.encode(report))
        #expect(decoded == report)
        #expect(decoded.jobs[0].tools[1].psnr?.mean == .infinity)
    }

    @Test func aJobWrittenBeforeKindImagesAreAndSourcesReadsAsAResizeOverItsInputs() throws {
        let old =
            #"{"name": "bug-thumb", "set": "png", "summary": "s", "images": 20, "megapixels": 123.6, "outputFormat": "jpeg", "tools": []}"#
        let job = try JSONDecoder().decode(BenchReport.Job.self, from: Data(old.utf8))
        #expect(job.kind == .resize && job.imagesAre == .inputs && job.sources == 20 && job.images == 20)
    }

    @Test func theHistoryKeepsTheCatalogBuildUnderItsJobLikeTheOthers() {
        let results = Self.sampleWithCatalogBuild().historyResults
        #expect(results.map(\.job) == ["bug-thumb/jpeg", "bug-thumb/jpeg", "bug-thumb/jpeg", "icons/demo"])
        #expect(results.last?.tool == "thumbkit" && results.last?.imagesPerSecond == 328)
        #expect(results.last?.ssim == nil)
    }

    @Test func theHistoryKeepsOneResultPerJobSetAndTool() {
        let results = Self.sample().historyResults
        #expect(results.map(\.job) == ["bug-thumb/jpeg", "bug-thumb/jpeg", "bug-thumb/jpeg"])
        #expect(results.map(\.tool) == ["thumbkit", "vipsthumbnail", "floor-djpeg"])
        #expect(results.map(\.ssim) == [0.93, 0.89, nil])
    }

    @Test func theEnvironmentIsReadFromTheSystemFiles() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu\n"
        #expect(BenchReport.Environment.cpuModel(cpuinfo: cpuinfo) == "AMD EPYC 7B13")
        #expect(BenchReport.Environment.cpuModel(cpuinfo: "") == "unknown CPU")
        let release = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n"
        #expect(BenchReport.Environment.osName(osRelease: release) == "Debian GNU/Linux 12 (bookworm)")
        #expect(BenchReport.Environment.gitCommit(directory: "/") == "unknown")
    }
}
