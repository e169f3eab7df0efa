// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCatalog

/// The poll's jitter: each wait lasts the interval ± 20 %.
struct JitteredWakeSourceTests {
    @Test func aWaitLastsTheIntervalPlusOrMinusTheSpread() {
        let poll = Duration.seconds(5)
        #expect(JitteredWakeSource.jittered(poll, spread: 0.2, unit: 0) == .seconds(4))
        #expect(JitteredWakeSource.jittered(poll, spread: 0.2, unit: 0.5) == .seconds(5))
        #expect(JitteredWakeSource.jittered(poll, spread: 0.2, unit: 0.999) == .milliseconds(5998))
        #expect(JitteredWakeSource.jittered(poll, spread: 0, unit: 0.9) == poll)
    }

    /// The timeout the base source is asked to wait for.
    final class Recorder: WakeSource, @unchecked Sendable {
        // @unchecked: only the test's own thread calls it.
        var timeouts: [Duration] = []
        func wait(timeout: Duration) { timeouts.append(timeout) }
        func interrupt() {}
    }

    @Test func theBaseWaitsForAJitteredTimeoutThatVaries() {
        let recorder = Recorder()
        let wake = JitteredWakeSource(recorder)
        for _ in 0..<50 { wake.wait(timeout: .seconds(10)) }
        #expect(recorder.timeouts.allSatisfy { $0 >= .seconds(8) && $0 <= .seconds(12) })
        #expect(Set(recorder.timeouts).count > 1, "no jitter")
    }
}
