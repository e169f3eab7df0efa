// SPDX-License-Identifier: Apache-2.0
import CThumbKitServe
import Testing

/// libmicrohttpd is opened when a server starts, with every entry point ThumbKitServe calls
/// checked at load (CThumbKitServe's http_shim.c). That `--version` does not load it is
/// checked with the other libraries in `LazyCodecLibraryTests`.
struct HTTPLibraryLoaderTests {
    private func probe(_ soname: String) -> (status: Int32, reason: String) {
        var reason = [CChar](repeating: 0, count: 256)
        let status = tk_http_probe_library(soname, &reason, UInt(reason.count))
        return (status, String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test func theInstalledLibraryHasEveryEntryPointTheServerCalls() {
        #expect(probe("libmicrohttpd.so.12").status == 0)
    }

    @Test func aLibraryWithoutThemIsRefusedNamingTheFirstMissingOne() {
        let (status, reason) = probe("libz.so.1")
        #expect(status == -1)
        #expect(reason.contains("libz.so.1 has no entry point MHD_"), "\(reason)")
    }

    @Test func aMissingLibraryIsRefusedWithTheLoadersReason() {
        let (status, reason) = probe("libthumbkit-no-such-server.so.9")
        #expect(status == -1)
        #expect(reason.contains("libthumbkit-no-such-server.so.9 cannot be loaded"), "\(reason)")
    }
}
