// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// The catalog one `thumbkit bench queue` run drains, made fresh for it and removed after it: a
/// new folder in `parent` (the output folder, the one source picture and, on SQLite, the
/// catalog file) and, on PostgreSQL, a new schema in the given database.
///
/// It never touches what it did not make: the folder is created with a name of its own (the
/// creation fails if anything is there), the schema with `CREATE SCHEMA` (which fails if one of
/// that name exists), and `remove` removes only those two.
final class QueueBenchScratch {
    /// The folder made for this run.
    let folder: String
    /// The workers' `--catalog`: the SQLite file, or the server's URL with `search_path` set to
    /// the new schema.
    let catalog: String
    /// The schema made for this run (PostgreSQL), else nil.
    let schema: String?
    /// The catalog, opened by the bench.
    let store: CatalogStore
    /// The one 16×16 source picture every record uses.
    let source: ImageRef
    /// The server's URL the schema was made in (PostgreSQL), else nil.
    private let server: String?

    /// The recipe every record gets: one 8×8 PNG at 1×, the cheapest output a record can have.
    static let recipes = #"""
        {"replaceDefaults": true, "recipes": [{"name": "food-list", "record": "food", "kind": "list", "size": "8x8", "scales": [1], "format": "png"}]}
        """#

    /// The food category every record is in.
    static let category = "bench"

    /// Makes the folder in `parent` (and on PostgreSQL, with `server` a `postgres://` URL, the
    /// schema) and an empty catalog there with `recipes` stored.
    init(server: String?, parent: String) throws {
        let name = "thumbkit-bench-queue-" + Self.randomTag()
        folder = (parent as NSString).appendingPathComponent(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        self.server = server
        var made: String?
        do {
            if let server {
                guard !server.contains("options=") else {
                    throw BenchError.queue(
                        subject: "--catalog",
                        reason: "the URL must not set 'options' (the bench sets search_path to a schema of its own)")
                }
                let schema = "thumbkit_bench_" + Self.randomTag()
                try PostgresAdmin.execute("CREATE SCHEMA \(schema)", url: server)
                made = schema
                catalog = server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
            } else {
                catalog = (folder as NSString).appendingPathComponent("catalog.sqlite")
            }
            schema = made
            store = try CatalogStore(location: try CatalogLocation(parsing: catalog), busyTimeout: .seconds(1))
            source = try Self.writeSource(in: folder)
            try store.write { tx in
                try tx.setRecipeFile(Self.recipes)
                _ = try tx.addCategory(Self.category)
            }
        } catch {
            Self.remove(folder: folder, schema: made, server: server)
            throw error
        }
    }

    /// `thumbkit-bench-queue-` folders and `thumbkit_bench_` schemas end in 12 random hex digits.
    private static func randomTag() -> String {
        String(UInt64.random(in: 0...UInt64.max) & 0xffff_ffff_ffff, radix: 16)
    }

    /// A 16×16 PNG, `source.png` in `folder`.
    private static func writeSource(in folder: String) throws -> ImageRef {
        var buffer = PixelBuffer(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 { buffer[x, y] = RGBA(UInt8(x * 16), UInt8(y * 16), 128) }
        }
        let path = (folder as NSString).appendingPathComponent("source.png")
        let bytes = try ImageEncoders.encode(buffer, options: EncodeOptions(format: .png))
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CatalogError.io(path: path, reason: "cannot write the bench's source picture")
        }
        return try ImageRef.load(path: path)
    }

    /// The workers' output folder (inside `folder`).
    var out: String { (folder as NSString).appendingPathComponent("out") }

    /// Adds `count` foods in one transaction (their queue rows come with them, from the
    /// catalog's triggers), named `f<start>`, `f<start + 1>`…
    func addRecords(_ count: Int, from start: Int = 0) throws {
        try store.write { tx in
            for index in start..<(start + count) {
                _ = try tx.addFood(category: Self.category, name: "f\(index)", image: source)
            }
        }
    }

    /// Rows left in the build queue, and output rows.
    func counts() throws -> (queue: Int, outputs: Int) {
        try store.read { tx in
            let queue = try tx.db.queryFirst("SELECT COUNT(*) FROM build_queue") { $0.int(0) } ?? 0
            let outputs = try tx.db.queryFirst("SELECT COUNT(*) FROM outputs") { $0.int(0) } ?? 0
            return (queue, outputs)
        }
    }

    /// Removes the schema and the folder this run made.
    func remove() { Self.remove(folder: folder, schema: schema, server: server) }

    private static func remove(folder: String, schema: String?, server: String?) {
        if let server, let schema {
            try? PostgresAdmin.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE", url: server)
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
