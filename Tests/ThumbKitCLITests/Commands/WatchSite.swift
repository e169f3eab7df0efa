// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitSite
@testable import ThumbKitWatch

/// A temporary folder for one end-to-end watch test: `inbox/` and `out/`, and the catalog on
/// `backend` (`catalog.sqlite` beside them, or a PostgreSQL schema of its own), removed when
/// the value goes away.
final class WatchSite {
    let root: String
    var inbox: String { root + "/inbox" }
    /// The `--catalog` value: `catalog.sqlite` (relative to `root`, where the watcher runs), or
    /// a URL whose search_path is the site's schema.
    let catalog: String
    /// Where `catalog` is, for reading it from the test.
    let location: CatalogLocation
    /// Holds the PostgreSQL schema (dropped with it).
    private let scratch: TestWorkspace

    /// A site; `small` writes `recipes.json` with two tiny recipes (so debug builds stay quick).
    init(small: Bool = false, backend: CatalogBackend = .sqlite) throws {
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("thumbkit-watch-\(UUID().uuidString)")
        let scratch = try TestWorkspace()
        let catalog = backend == .sqlite ? "catalog.sqlite" : try backend.catalog(in: scratch)
        self.scratch = scratch
        self.catalog = catalog
        location = try CatalogLocation(parsing: backend == .sqlite ? root + "/catalog.sqlite" : catalog)
        try FileManager.default.createDirectory(atPath: root + "/inbox", withIntermediateDirectories: true)
        let recipes = """
            {"replaceDefaults": true, "recipes": [
              {"name": "bug-list", "record": "bug", "kind": "list", "size": "16x16", "scales": [1, 2]},
              {"name": "food-list", "record": "food", "kind": "list", "size": "16x12", "mode": "fit", "scales": [1]}
            ]}
            """
        if small { try Data(recipes.utf8).write(to: URL(fileURLWithPath: root + "/recipes.json")) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Starts `thumbkit watch inbox --catalog <catalog> --out out --json <options>` in the site.
    func start(_ options: [String]) throws -> WatchProcess {
        try WatchProcess(["watch", "inbox", "--catalog", catalog, "--out", "out", "--json"] + options, in: root)
    }

    /// Writes `bytes` at `relative` inside the inbox (folders made as needed) with one
    /// open/write/close.
    func drop(_ relative: String, _ bytes: [UInt8]) throws {
        let path = inbox + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// 29 files: 14 bugs (two with rating sidecars), 10 foods in 3 categories, 2 same-title
    /// duplicates, 1 same image under another title, 2 corrupt. An uninterrupted run imports
    /// 25, skips 2 and rejects 2.
    func dropCrashBatch() throws {
        for index in 1...14 { try drop("bugs/Bug \(index).jpg", GeneratedImages.jpeg(seed: 500 + index)) }
        try drop("bugs/Bug 1.json", Array(#"{"rating": 2.5}"#.utf8))
        try drop("bugs/Bug 2.json", Array(#"{"rating": 4}"#.utf8))
        for index in 1...10 {
            let category = ["Soup", "Pasta", "Drinks"][index % 3]
            let bytes =
                index % 2 == 0 ? GeneratedImages.png(seed: 600 + index) : GeneratedImages.jpeg(seed: 600 + index)
            try drop("foods/\(category)/Food \(index).\(index % 2 == 0 ? "png" : "jpg")", bytes)
        }
        try drop("bugs/Bug 1.jpeg", GeneratedImages.jpeg(seed: 501))
        try drop("bugs/Bug 3.jpeg", GeneratedImages.jpeg(seed: 503))
        try drop("bugs/Twin.jpg", GeneratedImages.jpeg(seed: 502))
        try drop("bugs/Broken.jpg", Array("this is text".utf8))
        try drop("foods/Soup/Cut.jpg", Array(GeneratedImages.jpeg(seed: 699).prefix(300)))
    }

    /// The catalog and folders as a value two runs can be compared by.
    func view() throws -> CatalogView {
        try CatalogView(location: location, out: root + "/out", inbox: inbox)
    }
}

/// What a watch run leaves, without what may differ between two correct runs (row ids, times,
/// which of two identical files was imported and which skipped, where a source sits).
struct CatalogView: Equatable, CustomStringConvertible {
    /// A record: rating, image hash, and its outputs as `recipe|scale|WxH|kind`.
    struct Record: Equatable {
        var rating: String
        var imageSHA256: String?
        var outputs: [String]
    }

    var categories: [String] = []
    /// By `bug:<title>` or `food:<category>/<name>`.
    var records: [String: Record] = [:]
    /// Rows of `ingested_files` by status.
    var statusCounts: [String: Int] = [:]
    /// Names in `.rejected/` other than the notes.
    var rejected: [String] = []
    /// Rows still `pending`.
    var pending = 0
    /// Outputs the catalog lists that are missing or of another size, output files nothing
    /// lists, rejected files without a note. Not part of equality: each run must have none.
    var problems: [String] = []
    /// Hidden files in the output folder (an atomic write's temporary file, left when a
    /// process is killed mid-write). Not part of equality.
    var hiddenLeftovers: [String] = []

    init(location: CatalogLocation, out: String, inbox: String) throws {
        let store = try CatalogStore(location: location)
        var referenced = Set<String>()
        try store.read { tx in
            categories = try tx.categories().map(\.name).sorted()
            func outputs(_ ref: RecordRef) throws -> [String] {
                try tx.outputs(for: ref).map { row in
                    referenced.insert(row.path)
                    let attributes = try? FileManager.default.attributesOfItem(atPath: out + "/" + row.path)
                    let size = (attributes?[.size] as? NSNumber)?.intValue
                    if size != row.bytes {
                        problems.append(
                            "\(row.path): listed with \(row.bytes) bytes, found \(size.map(String.init) ?? "none")")
                    }
                    return "\(row.recipe)|\(row.scale)|\(row.width)x\(row.height)|\(row.kind.rawValue)"
                }.sorted()
            }
            for bug in try tx.bugs() {
                records["bug:" + bug.title] = Record(
                    rating: bug.rating.description, imageSHA256: bug.image?.sha256, outputs: try outputs(bug.ref))
            }
            for food in try tx.foods() {
                records["food:\(food.category)/\(food.name)"] = Record(
                    rating: "", imageSHA256: food.image?.sha256, outputs: try outputs(food.ref))
            }
            for row in try tx.ingestedFiles() { statusCounts[row.status.rawValue, default: 0] += 1 }
            pending = statusCounts["pending"] ?? 0
        }
        if let walker = FileManager.default.enumerator(atPath: out) {
            for case let path as String in walker {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: out + "/" + path, isDirectory: &isFolder),
                    !isFolder.boolValue
                else { continue }
                // The folder's ownership marker is the build's on purpose, not a leftover.
                if path == ".thumbkit-catalog" { continue }
                if (path as NSString).lastPathComponent.hasPrefix(".") {
                    hiddenLeftovers.append(path)
                } else if !referenced.contains(path) {
                    problems.append("\(path): in the output folder but not in the catalog")
                }
            }
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: inbox + "/.rejected")) ?? []
        rejected = names.filter { !$0.hasSuffix(".error.txt") }.sorted()
        for name in rejected where !names.contains(name + ".error.txt") {
            problems.append("\(name): rejected without a note")
        }
    }

    static func == (a: CatalogView, b: CatalogView) -> Bool {
        a.categories == b.categories && a.records == b.records && a.statusCounts == b.statusCounts
            && a.rejected == b.rejected && a.pending == b.pending
    }

    var description: String {
        "categories \(categories), \(records.count) records, statuses \(statusCounts), rejected \(rejected), pending \(pending)"
    }
}
