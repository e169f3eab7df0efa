// SPDX-License-Identifier: Apache-2.0
import CPostgres
import Foundation
import Testing
import ThumbKitTestSupport

/// libpq is opened at the first PostgreSQL catalog, with every entry point the catalog calls
/// checked at load (CPostgres's libpq_loader.c).
struct LibPQLoaderTests {
    private func probe(_ soname: String) -> (status: Int32, reason: String) {
        var reason = [CChar](repeating: 0, count: 256)
        let status = tk_pq_probe_library(soname, &reason, UInt(reason.count))
        return (status, String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test func theInstalledLibpqHasEveryEntryPointTheCatalogCalls() {
        #expect(probe("libpq.so.5").status == 0)
    }

    @Test func aLibraryWithoutThemIsRefusedNamingTheFirstMissingOne() {
        let (status, reason) = probe("libz.so.1")
        #expect(status == -1)
        #expect(reason.contains("libz.so.1 has no entry point PQ"), "\(reason)")
    }

    @Test func aMissingLibraryIsRefusedWithTheLoadersReason() {
        let (status, reason) = probe("libthumbkit-no-such-client.so.9")
        #expect(status == -1)
        #expect(reason.contains("libthumbkit-no-such-client.so.9 cannot be loaded"), "\(reason)")
    }

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
