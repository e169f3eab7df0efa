// SPDX-License-Identifier: Apache-2.0
extension Duration {
    /// Whole milliseconds (rounded down).
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration in seconds, fractions included (a Dispatch deadline, a `Thread.sleep`).
    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// ``milliseconds`` clamped to 0…`Int32.max`: a busy or lock timeout for SQLite or PostgreSQL.
    package var timeoutMilliseconds: Int32 { Int32(max(0, min(Int64(Int32.max), milliseconds))) }
}
