// SPDX-License-Identifier: Apache-2.0
import CPostgres
import CThumbKit
import CThumbKitServe
import Testing

/// The three libraries ThumbKit opens at first use (`TK_DL_LOADER`): libheif at the first HEIF
/// file, libpq at the first PostgreSQL catalog, libmicrohttpd when a server starts. Each loader
/// checks every entry point its callers use when it loads the library. That start-up loads none
/// of them is checked in `LazyCodecLibraryTests` and `LibPQLoaderTests`.
struct LazyLibraryLoaderTests {
    /// One loader: the library it opens, the prefix its entry points share, and its check at
    /// load run on a library of the caller's choice (status, reason).
    struct Loader: Sendable, CustomTestStringConvertible {
        let soname: String
        let prefix: String
        let probe: @Sendable (String) -> (status: Int32, reason: String)
        var testDescription: String { soname }

        static let all = [
            Loader(soname: "libheif.so.1", prefix: "heif_") { name in
                reason { buffer, _ in tk_heif_probe_library(name, buffer) }
            },
            Loader(soname: "libpq.so.5", prefix: "PQ") { name in
                reason { buffer, count in tk_pq_probe_library(name, buffer, UInt(count)) }
            },
            Loader(soname: "libmicrohttpd.so.12", prefix: "MHD_") { name in
                reason { buffer, count in tk_http_probe_library(name, buffer, UInt(count)) }
            },
        ]

        /// Calls `probe` with a `TK_ERR_LEN`-byte buffer and reads back its reason.
        static func reason(_ probe: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (status: Int32, reason: String) {
            var buffer = [CChar](repeating: 0, count: Int(TK_ERR_LEN))
            let status = buffer.withUnsafeMutableBufferPointer { probe($0.baseAddress!, $0.count) }
            return (status, String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    @Test(arguments: Loader.all) func theInstalledLibraryHasEveryEntryPointItsCallersUse(loader: Loader) {
        let (status, reason) = loader.probe(loader.soname)
        #expect(status == 0, "\(reason)")
    }

    @Test(arguments: Loader.all) func aLibraryWithoutThemIsRefusedNamingTheFirstMissingOne(loader: Loader) {
        // libz is always there (libpng needs it) and has none of these symbols.
        let (status, reason) = loader.probe("libz.so.1")
        #expect(status == -1)
        #expect(reason.contains("libz.so.1 has no entry point \(loader.prefix)"), "\(reason)")
    }

    @Test(arguments: Loader.all) func aMissingLibraryIsRefusedWithTheLoadersReason(loader: Loader) {
        let (status, reason) = loader.probe("libthumbkit-no-such-library.so.9")
        #expect(status == -1)
        #expect(reason.contains("libthumbkit-no-such-library.so.9 cannot be loaded"), "\(reason)")
    }
}
