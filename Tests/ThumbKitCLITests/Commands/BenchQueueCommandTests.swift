// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

/// `thumbkit bench queue` with real worker processes, on both backends: every record built
/// exactly once, the counts add up, and the catalog it made is gone afterwards.
struct BenchQueueCommandTests {
    @Test(arguments: CatalogBackend.all)
    func drainsEveryRecordOnceAndRemovesItsCatalog(backend: CatalogBackend) throws {
        // --batch 1 (the workers' default is 4 × -j): one claim per record, counted below.
        var arguments = [
            "bench", "queue", "--records", "36", "--workers", "2", "--batch", "1", "--json", "--timeout", "300",
        ]
        var server: String?
        if backend == .postgres {
            guard let url = TestPostgres.requireURL() else { return }
            server = url
            arguments += ["--catalog", url]
        }
        let run = try TestBinary.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(QueueBenchReport.self, from: Data(run.stdout.utf8))
        #expect(report.results.count == 1)
        let result = try #require(report.results.first)
        #expect(result.backend == (backend == .sqlite ? "sqlite" : "postgresql"))
        #expect(result.workers == 2)
        // Every record built, none twice, nothing failed or lost, the queue empty, one output
        // row per record.
        #expect(result.records == 36)
        #expect(result.built == 36)
        #expect(result.duplicates == 0)
        #expect(result.failed == 0 && result.lost == 0)
        #expect(result.queueLeft == 0)
        #expect(result.outputRows == 36)
        // One record a claim (--batch 1): as many claims as records, each record's commit a
        // write transaction of its own.
        #expect(result.claims == 36)
        #expect(result.commits >= 36)
        let p50 = try #require(result.claimP50Ms)
        let p99 = try #require(result.claimP99Ms)
        #expect(p50 > 0 && p50 <= p99)
        #expect(result.seconds > 0)
        if backend == .sqlite {
            #expect(result.statementsPerRecord == nil)
            #expect(result.statementsNote != nil)
        } else {
            // With pg_stat_statements, at least a claim and a commit per record; without, a reason.
            #expect((result.statementsPerRecord ?? 0) >= 2 || result.statementsNote != nil)
        }
        // What it made is gone: the folder, and the schema (creating it again succeeds).
        #expect(!FileManager.default.fileExists(atPath: result.folder))
        if let server {
            let schema = try #require(result.schema)
            #expect(schema.hasPrefix("thumbkit_bench_"))
            try PostgresAdmin.execute("CREATE SCHEMA \(schema); DROP SCHEMA \(schema)", url: server)
        } else {
            #expect(result.schema == nil)
        }
    }

    /// `--catalog DIR` of someone else's: the run makes a folder of its own inside and removes
    /// only that. A catalog file, a picture and a look-alike `thumbkit-bench-queue-` folder with
    /// a file in it, all already in DIR, stay exactly as they were, and nothing new is left.
    @Test func aFolderGivenAsCatalogKeepsEverythingThatWasInIt() throws {
        let parent = try TestBinary.temporaryDirectory("bench-queue-foreign")
        defer { try? FileManager.default.removeItem(at: parent) }
        let planted: [(String, Data)] = [
            ("catalog.sqlite", Data("not the bench's catalog".utf8)),
            ("source.png", Data("a picture of someone else".utf8)),
            ("thumbkit-bench-queue-000000000001/out/keep.png", Data("kept".utf8)),
        ]
        for (path, bytes) in planted {
            let url = parent.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url)
        }
        let before = try FileManager.default.subpathsOfDirectory(atPath: parent.path).sorted()
        let run = try TestBinary.run([
            "bench", "queue", "--catalog", parent.path, "--records", "4", "--workers", "1", "--json",
            "--timeout", "300",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(QueueBenchReport.self, from: Data(run.stdout.utf8))
        let result = try #require(report.results.first)
        #expect(result.built == 4)
        #expect(result.folder.hasPrefix(parent.path + "/"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: parent.path).sorted() == before)
        for (path, bytes) in planted {
            #expect(try Data(contentsOf: parent.appendingPathComponent(path)) == bytes, "\(path)")
        }
    }

    @Test func refusesACatalogThatIsNoFolderNorPostgres() throws {
        let run = try TestBinary.run(["bench", "queue", "--catalog", "/nonexistent/some.sqlite", "--records", "1"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--catalog"))
    }
}

/// `thumbkit bench queue --soak` on real PostgreSQL: three parts, every record built once, and
/// the dead rows of the part run under the held snapshot still there at its end.
@Suite(.enabled(if: CatalogBackend.postgresEnabled, "needs PostgreSQL (THUMBKIT_TEST_POSTGRES_URL)"))
struct BenchQueueSoakTests {
    @Test func aSoakDrainsEveryRecordOnceAndTheSnapshotKeepsTheDeadRows() throws {
        guard let url = TestPostgres.requireURL() else { return }
        let run = try TestBinary.run([
            "bench", "queue", "--soak", "--records", "500", "--workers", "2", "--json", "--timeout", "300",
            "--catalog", url,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(QueueSoakReport.self, from: Data(run.stdout.utf8))
        #expect(report.phases.map(\.phase) == ["before", "during", "after"])
        #expect(report.phases.map(\.records).reduce(0, +) == 500)
        #expect(report.phases.allSatisfy { $0.records > 0 && $0.seconds > 0 && $0.recordsPerSecond > 0 })
        #expect(report.built == 500 && report.duplicates == 0 && report.lost == 0 && report.failed == 0)
        #expect(report.queueLeft == 0 && report.outputRows == 500)
        #expect(report.isHealthy)
        // Each record's queue row is deleted once built; under the snapshot no vacuum or
        // pruning can remove those versions.
        let during = try #require(report.phases.first { $0.phase == "during" })
        #expect(during.deadTuples >= during.records)
        #expect(during.deadTuplesAfterVacuum >= during.records)
        // Once it has ended, VACUUM removes them all.
        let after = try #require(report.phases.last)
        #expect(after.deadTuplesAfterVacuum < during.records)
        // The schema it made is gone.
        try PostgresAdmin.execute("CREATE SCHEMA \(report.schema); DROP SCHEMA \(report.schema)", url: url)
    }

    @Test func aSoakOnSQLiteIsRefused() throws {
        let run = try TestBinary.run(["bench", "queue", "--soak", "--records", "3", "--workers", "1"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("needs a PostgreSQL --catalog"), "\(run.stderr)")
    }
}
