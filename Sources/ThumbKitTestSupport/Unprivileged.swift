// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs file-system code as an unprivileged user, so that permission tests mean something when
/// the tests run as root (root reads and writes through any mode bits).
///
/// Linux checks file access against the *filesystem* uid, which is per thread: `setfsuid` to
/// `nobody` (65534) makes this thread alone lose root's file powers (CAP_DAC_OVERRIDE and
/// friends) until it is set back, so tests running in parallel on other threads are unaffected.
/// `body` must therefore be synchronous and do its file access on the calling thread. When the
/// tests do not run as root, `body` simply runs: the mode bits already apply.
public enum Unprivileged {
    /// The uid file access is checked against while `body` runs (`nobody`).
    public static let uid: UInt32 = 65534

    public static func run<T>(_ body: () throws -> T) rethrows -> T {
        guard geteuid() == 0 else { return try body() }
        // glibc has setfsuid but the Swift Glibc module does not export it.
        typealias SetFSUID = @convention(c) (UInt32) -> Int32
        guard let symbol = dlsym(nil, "setfsuid") else { fatalError("setfsuid not found") }
        let setfsuid = unsafeBitCast(symbol, to: SetFSUID.self)
        _ = setfsuid(uid)
        defer { _ = setfsuid(0) }
        return try body()
    }
}
