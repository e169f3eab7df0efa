// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

/// libpq is opened at the first PostgreSQL catalog, not at start-up. Its loader's check of the
/// entry points (CPostgres's libpq_loader.c) is tested with the other lazily loaded libraries
/// (`LazyLibraryLoaderTests` in ThumbKitServeTests).
struct LibPQLoaderTests {
    /// `catalog` commands on an SQLite file never load libpq; one on a PostgreSQL URL does, when
    /// it needs it (the dynamic loader's own report, `LD_DEBUG=files`, on stderr).
    @Test func onlyAPostgresCatalogLoadsLibpq() throws {
        let dir = try TestBinary.temporaryDirectory("tk-libpq")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sqlite = try TestBinary.run(
            ["catalog", "list", "--catalog", dir.appendingPathComponent("c.db").path],
            environment: ["LD_DEBUG": "files"])
        #expect(sqlite.stderr.contains("file=libsqlite3.so.0"))
        #expect(!sqlite.stderr.contains("libpq.so"))
        // An unreachable server: the command fails, but only after it loaded libpq to try.
        let postgres = try TestBinary.run(
            ["catalog", "list", "--catalog", "postgres://nobody@127.0.0.1:1/none?connect_timeout=1"],
            environment: ["LD_DEBUG": "files"])
        #expect(postgres.status != 0)
        #expect(postgres.stderr.contains("file=libpq.so.5") && postgres.stderr.contains("dynamically loaded"))
    }
}
