import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// Test hook, not for use: `THUMBKIT_WATCH_CRASH_AT=<phase>:<n>` makes the watcher kill itself
/// with SIGKILL when the n-th file reaches `<phase>`, so tests can crash it at an exact point of
/// an ingest and check that a restart ends as an uninterrupted run would. Phases, in order:
/// `committed` (record and `pending` row written), `moved` (source moved by `--move-done`),
/// `built` (outputs made, row not yet `imported`).
public final class _WatchCrashPoint: Sendable {
    /// The environment variable read by ``init(environment:)``.
    public static let variable = "THUMBKIT_WATCH_CRASH_AT"

    let phase: String
    let count: Int
    private let reached = Locked(0)

    /// The crash point the environment asks for, or nil (unset or malformed).
    public init?(environment: [String: String]) {
        guard let value = environment[Self.variable] else { return nil }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let count = Int(parts[1]), count > 0 else { return nil }
        self.phase = String(parts[0])
        self.count = count
    }

    /// Called by the ingestor at each phase; kills the process at the chosen one.
    func reach(_ phase: String) {
        guard phase == self.phase else { return }
        let n = reached.withLock { value in
            value += 1
            return value
        }
        if n == count { kill(getpid(), SIGKILL) }
    }
}
