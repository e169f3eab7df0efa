// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct CatalogCopyTests {
    /// The columns of every table on `backend`, by table.
    private func columns(_ store: CatalogStore, _ backend: CatalogBackend) throws -> [String: [String]] {
        try store.read { tx in
            var result: [String: [String]] = [:]
            for table in try tx.connection.dialect.tables(tx.connection)
            where table != "schema_version" && !CatalogCopy.notCopied.contains(table) {
                let sql =
                    backend == .sqlite
                    ? "SELECT name FROM pragma_table_info(?) ORDER BY cid"
                    : "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                        + "AND table_name = ? ORDER BY ordinal_position"
                result[table] = try tx.connection.query(sql, [.text(table)]) { $0.string(0) }
            }
            return result
        }
    }

    @Test(arguments: CatalogBackend.all) func theCopiedColumnsAreEveryColumnOfTheSchema(backend: CatalogBackend) throws
    {
        let workspace = try TestWorkspace()
        let schema = try columns(try workspace.store(backend: backend), backend)
        let copied = Dictionary(uniqueKeysWithValues: CatalogCopy.tables.map { ($0.name, $0.columns) })
        #expect(copied == schema)
    }

    @Test(arguments: CatalogBackend.all) func aCopyKeepsIDsTimesAndSettingsAndRefusesToMerge(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        let source = try workspace.store("a.sqlite", backend: .sqlite)
        try source.write { tx in
            try tx.addBug(title: "Nine", rating: Rating(exactly: 2.5)!, id: 9)
            try tx.addCategory("C")
            try tx.addFood(category: "C", name: "F", image: nil, id: 4)
            _ = try tx.catalogID()
            try tx.recordIngest(path: "in/x.png", sha256: "ab", record: .bug(9), status: .imported)
        }
        // A catalog of an older release keeps its benchmark runs: a copy keeps them too.
        try source.write { tx in
            try tx.connection.run(
                "INSERT INTO bench_runs (date, git_commit, machine) VALUES (?, ?, ?)",
                [.text(Timestamp.string(from: Date())), .text("abc"), .text("m")])
        }
        let target = try workspace.store("b.sqlite", backend: backend)
        let counts = try CatalogCopy.copy(from: source, to: target)
        #expect(counts["bugs"] == 1 && counts["bench_runs"] == 1 && counts["ingested_files"] == 1)
        #expect(try target.bugs() == source.bugs())
        #expect(try target.foods() == source.foods())
        #expect(try target.read { try $0.catalogID() } == source.read { try $0.catalogID() })
        #expect(try target.write { try $0.addBug(title: "Ten") }.id == 10)
        #expect(catalogError { try CatalogCopy.copy(from: source, to: target) } != nil)
    }

    /// Rows go over in many-row INSERTs: more rows than one INSERT takes (two full batches and a
    /// part), with NULLs, quotes and non-ASCII text among them, arrive exactly, in every table.
    @Test(arguments: CatalogBackend.all) func aCopyOfMoreRowsThanOneInsertTakesKeepsEveryRow(backend: CatalogBackend)
        throws
    {
        let perInsert = MultiRowInsert.rowsPerStatement(columns: 7)
        #expect(perInsert > 1 && perInsert < 1_000)
        let workspace = try TestWorkspace()
        let source = try workspace.store("a.sqlite", backend: .sqlite)
        let count = 2 * perInsert + 37
        try source.write { tx in
            for index in 1...count {
                let title = index % 3 == 0 ? "Bug's \"\(index)\" – ü ?" : "Bug \(index)"
                try tx.addBug(title: title, rating: Rating(exactly: Double(index % 11) / 2)!, id: index * 2)
            }
            try tx.addCategory("C")
            for index in 1...(perInsert + 1) {
                try tx.addFood(category: "C", name: "Food \(index)", image: nil, id: index)
            }
            _ = try tx.catalogID()
        }
        let target = try workspace.store("b.sqlite", backend: backend)
        let counts = try CatalogCopy.copy(from: source, to: target)
        #expect(counts["bugs"] == count && counts["foods"] == perInsert + 1)
        let copied = try target.copiedTableContents()
        let original = try source.copiedTableContents()
        for table in CatalogCopy.tables {
            #expect(copied[table.name] == original[table.name], "\(table.name)")
        }
        #expect(try target.write { try $0.addBug(title: "Next") }.id == 2 * count + 1)
    }
}

extension CatalogStore {
    /// Every table `CatalogCopy` copies, its rows as text in id order: what a copy must carry
    /// over exactly.
    func copiedTableContents() throws -> [String: [String]] {
        try read { tx in
            var result: [String: [String]] = [:]
            for table in CatalogCopy.tables {
                result[table.name] = try tx.connection.query(
                    "SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name) ORDER BY 1"
                ) { row in (0..<Int32(table.columns.count)).map { "\(row.value($0))" }.joined(separator: "|") }
            }
            return result
        }
    }
}
