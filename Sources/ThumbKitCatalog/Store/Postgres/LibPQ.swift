// SPDX-License-Identifier: Apache-2.0
import CPostgres

/// libpq, opened at the first PostgreSQL catalog rather than linked (CPostgres's
/// `libpq_loader.c`): a command that never meets a `postgres://` URL never loads it.
enum LibPQ {
    /// Why libpq cannot be used (it is not installed, or lacks an entry point the catalog
    /// calls); nil once it is loaded. The first call loads it; later calls only report.
    static func unavailable() -> String? {
        var reason = [CChar](repeating: 0, count: 256)
        guard tk_pq_ready(&reason, UInt(reason.count)) != 0 else { return nil }
        return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
