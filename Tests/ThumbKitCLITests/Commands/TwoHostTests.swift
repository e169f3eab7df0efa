// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

/// Two hosts (network namespaces with their own host names) share one PostgreSQL catalog and
/// one output folder; every process of host A is killed with SIGKILL mid-build and host B must
/// finish alone: `scripts/two-host-test` against the `thumbkit` built next to this bundle. The
/// script holds the whole scenario and its checks (its header lists them); this test runs it so
/// that `scripts/test` (and CI) does, and `swift test --filter TwoHost` alone runs it too.
///
/// The script exits 77 when this user may not create network namespaces (not root, or a
/// container without the privilege): that is a skip, said on stderr, even under `CI=true`. Any
/// other failure to run (no PostgreSQL package, no `ip`, a veth that cannot be made) fails.
struct TwoHostTests {
    /// `scripts/two-host-test`, found from this file's path.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/two-host-test")

    @Test(.tags(.realProcess, .kill), .timeLimit(.minutes(5)))
    func hostBFinishesAfterHostAIsKilledAndTheResultMatchesOneHost() throws {
        let binary = TestBinary.thumbkit.path
        try #require(
            FileManager.default.isExecutableFile(atPath: binary), "no thumbkit binary at \(binary); build it first")
        let run = try TestBinary.run(executable: Self.script, ["--bin", binary])
        if run.status == 77 {
            print("TwoHostTests skipped: \(run.stderr.split(separator: "\n").last ?? "")")
            return
        }
        #expect(run.status == 0, "scripts/two-host-test exited \(run.status):\n\(run.stderr)")
        #expect(run.stderr.contains("passed:"), "\(run.stderr)")
    }
}
