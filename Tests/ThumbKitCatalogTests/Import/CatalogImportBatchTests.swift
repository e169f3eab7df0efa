// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// A large import goes in `CatalogImporter.batchSize` records per transaction (issue
/// "Scale-out", 3); `atomic` keeps it all-or-nothing.
struct CatalogImportBatchTests {
    /// An import file of `count` bugs titled `Bug <n>`; the one at `bad` has an invalid rating.
    static func document(bugs count: Int, bad: Int? = nil) -> Data {
        let bugs = (0..<count).map { index in
            #"{"title": "Bug \#(index)", "rating": \#(index == bad ? "7" : "2.5")}"#
        }
        return Data(#"{"bugs": [\#(bugs.joined(separator: ","))]}"#.utf8)
    }

    @Test func batchesCoverEveryIndexOnceInOrder() {
        let size = CatalogImporter.batchSize
        #expect(CatalogImporter.batches(0) == [])
        #expect(CatalogImporter.batches(1) == [0..<1])
        #expect(CatalogImporter.batches(size) == [0..<size])
        #expect(CatalogImporter.batches(2 * size + 1) == [0..<size, size..<(2 * size), (2 * size)..<(2 * size + 1)])
    }

    @Test func aFileLargerThanABatchGoesInWholeWithItsBadRecordReported() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let count = 2 * CatalogImporter.batchSize + 2
        let report = try CatalogImporter(store: store).importData(
            Self.document(bugs: count, bad: count - 1), source: "big.json", base: workspace.root)
        #expect(report.applied)
        #expect(report.bugs == .init(added: count - 1))
        #expect(report.problems.map(\.path) == ["bugs[\(count - 1)]"])
        #expect(try store.read { try $0.bugs().count } == count - 1)
        let again = try CatalogImporter(store: store).importData(
            Self.document(bugs: count), source: "big.json", base: workspace.root)
        #expect(again.bugs == .init(added: 1, unchanged: count - 1))
    }

    @Test func anAtomicFileLargerThanABatchWithABadRecordChangesNothing() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let count = CatalogImporter.batchSize + 1
        let report = try CatalogImporter(store: store).importData(
            Self.document(bugs: count, bad: count - 1), source: "big.json", base: workspace.root, atomic: true)
        #expect(!report.applied)
        #expect(try store.read { try $0.bugs().count } == 0)
    }
}
