// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitWatch

@testable import ThumbKitCLI

/// The hidden `watch --_crash-at PHASE:N` (the kill tests' crash points in the real binary).
struct WatchKillPointTests {
    @Test(arguments: [
        ("committed:1", IngestPhase.committed, 1), ("moved:3", .moved, 3), ("built:12", .built, 12),
    ])
    func aPhaseAndACountAreAccepted(text: String, phase: IngestPhase, count: Int) throws {
        let point = try #require(WatchKillPoint(text))
        #expect(point.phase == phase && point.count == count)
    }

    @Test(arguments: ["committed", "committed:0", "committed:-1", "done:1", "built:1:2", ":1", "built:", ""])
    func malformedValuesAreRefused(text: String) {
        #expect(WatchKillPoint(text) == nil)
    }

    @Test func otherPhasesAndEarlierFilesDoNotKill() {
        // Reaching `built` twice with the kill set for the third time: the process is still here.
        let point = WatchKillPoint(phase: .built, count: 3)
        for _ in 0..<2 { point.reached(.built) }
        for _ in 0..<5 { point.reached(.committed) }
        #expect(point.timesReached == 2)  // and this process is still alive
    }

    @Test func aMalformedValueIsAUsageError() async {
        let err = TextOutput()
        let status = await CLI.run(
            ["watch", "/nonexistent/inbox", "--_crash-at", "done:1"], commands: ThumbKitCommands.all,
            stdout: TextOutput(), stderr: err)
        #expect(status == 2)
        #expect(err.text.hasPrefix("thumbkit: error: invalid value 'done:1' for option '--_crash-at': "))
    }
}
