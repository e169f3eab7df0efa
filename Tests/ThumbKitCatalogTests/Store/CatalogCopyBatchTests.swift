// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// `catalog copy`'s bulk path (`appendRows`: multi-row `INSERT`s into SQLite, one `COPY … FROM
/// STDIN` per table into PostgreSQL): rows split over many statements or data messages, and
/// values the COPY text format must escape, arrive exactly.
struct CatalogCopyBatchTests {
    /// 1,000 bugs and 1,000 foods in batches of 7 rows (143 batches, the last one short): every
    /// row arrives, with its id, and the next id follows the largest.
    @Test(arguments: CatalogBackend.all) func aCopyInManySmallBatchesKeepsEveryRow(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let source = try workspace.store("a.sqlite", backend: .sqlite)
        try source.write { tx in
            try tx.addCategory("C")
            for index in 1...1_000 {
                try tx.addBug(title: "Bug \(index)", rating: Rating(exactly: Double(index % 11) / 2)!, id: 3 * index)
                try tx.addFood(category: "C", name: "Food \(index)", image: nil, id: index)
            }
            _ = try tx.catalogID()
        }
        let target = try workspace.store("b.sqlite", backend: backend)
        let counts = try CatalogCopy.copy(from: source, to: target, rowsPerBatch: 7)
        #expect(counts["bugs"] == 1_000 && counts["foods"] == 1_000 && counts["categories"] == 1)
        let copied = try target.copiedTableContents()
        let original = try source.copiedTableContents()
        #expect(copied["bugs"]?.count == 1_000)
        for table in CatalogCopy.tables {
            #expect(copied[table.name] == original[table.name], "\(table.name)")
        }
        #expect(try target.write { try $0.addBug(title: "Next") }.id == 3_001)
    }

    /// Text with the bytes COPY's text format gives a meaning (tab, newline, carriage return,
    /// backslash, `\N`, `\.`), quotes, control and non-ASCII characters, a long text that spans
    /// data messages, and doubles that must read back exactly, arrive byte for byte.
    @Test(arguments: CatalogBackend.all) func aCopyCarriesTextThatNeedsEscapingExactly(backend: CatalogBackend)
        throws
    {
        let titles = [
            "tab\there", "line\nbreak", "carriage\rreturn", "back\\slash", "\\N", "\\.", "\\", "ends with \\",
            "it's \"quoted\"", "ctrl \u{1}\u{7}\u{8}\u{b}\u{c}\u{1b}\u{7f}", "é and e\u{301}", "🦗 emoji",
            "\u{feff}bom", "\r\n\t\\\\n", "N",
        ]
        // Far longer than a data message of two catalog rows (in a column without an index).
        let long = String(repeating: "long\t\\x\n", count: 40_000)
        let workspace = try TestWorkspace()
        let source = try workspace.store("a.sqlite", backend: .sqlite)
        try source.write { tx in
            for (index, title) in titles.enumerated() {
                try tx.addBug(title: title, rating: Rating(exactly: 0.5)!, id: index + 1)
            }
            try tx.connection.run(
                "INSERT INTO bench_runs (id, date, git_commit, machine, note) VALUES (?, ?, ?, ?, ?)",
                [.integer(5), .text("2026-12-06T00:00:00Z"), .text("a\tb"), .text("m\\n"), .text("\\N")])
            try tx.connection.run("INSERT INTO settings (key, value) VALUES (?, ?)", [.text("long"), .text(long)])
            try tx.connection.run(
                "INSERT INTO bench_results (run_id, job, tool, images_per_second, megapixels_per_second, "
                    + "wall_median_seconds, peak_rss_bytes, ssim, corpus_digest, images, timed_runs) "
                    + "VALUES (5, 'j', 't', ?, ?, ?, ?, ?, '', 1, 1)",
                [.real(0.1), .real(1e-300), .real(123_456_789.123_456_78), .integer(Int(Int32.max) * 4), .null])
        }
        let target = try workspace.store("b.sqlite", backend: backend)
        // Batches of 2 rows: the long setting goes in a data message with one other row.
        try CatalogCopy.copy(from: source, to: target, rowsPerBatch: 2)
        let copiedTitles = try target.bugs().sorted { $0.id < $1.id }.map(\.title)
        #expect(copiedTitles.map { Array($0.utf8) } == titles.map { Array($0.utf8) })
        #expect(try target.copiedTableContents() == source.copiedTableContents())
        let copiedLong = try target.read { tx in
            try tx.connection.queryFirst("SELECT value FROM settings WHERE key = 'long'") { $0.string(0) }
        }
        #expect(copiedLong.map { Array($0.utf8) } == Array(long.utf8))
        let doubles = try target.read { tx in
            try tx.connection.queryFirst(
                "SELECT images_per_second, megapixels_per_second, wall_median_seconds FROM bench_results"
            ) { [$0.double(0), $0.double(1), $0.double(2)] }
        }
        #expect(doubles == [0.1, 1e-300, 123_456_789.123_456_78])
    }

    /// PostgreSQL cannot store a NUL character: a copy of a title holding one fails naming
    /// that, and adds nothing (the COPY is abandoned and the transaction rolled back).
    @Test(.enabled(if: CatalogBackend.postgresEnabled)) func aCopyToPostgresOfTextWithANulFailsAndAddsNothing()
        throws
    {
        let workspace = try TestWorkspace()
        let source = try workspace.store("a.sqlite", backend: .sqlite)
        try source.write { tx in
            for index in 1...50 { try tx.addBug(title: index == 40 ? "nul\u{0}here" : "Bug \(index)") }
        }
        let target = try workspace.store("b.sqlite", backend: .postgres)
        let error = catalogError { try CatalogCopy.copy(from: source, to: target, rowsPerBatch: 16) }
        #expect(error?.reason.contains("nul character") == true, "\(String(describing: error))")
        #expect(try target.bugs().isEmpty)
        // The connection is usable afterwards, and a copy without the bad title goes through.
        try source.write { tx in try tx.connection.run("DELETE FROM bugs WHERE id = 40") }
        #expect(try CatalogCopy.copy(from: source, to: target, rowsPerBatch: 16)["bugs"] == 49)
    }
}
