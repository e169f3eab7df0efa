// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitServe

@Suite struct ServeMetricsTests {
    @Test func theExpositionCountsByStatusWithACumulativeHistogram() {
        let metrics = ServeMetrics()
        metrics.observe(status: 200, seconds: 0.003)
        metrics.observe(status: 200, seconds: 0.2)
        metrics.observe(status: 304, seconds: 0.001)
        metrics.observe(status: 429, seconds: 20)
        metrics.countCacheHit()
        let text = metrics.exposition(rendersInFlight: 2, queueDepth: 5)
        let lines = Set(text.split(separator: "\n").map(String.init))
        #expect(lines.contains("thumbkit_requests_total{status=\"200\"} 2"))
        #expect(lines.contains("thumbkit_requests_total{status=\"304\"} 1"))
        #expect(lines.contains("thumbkit_request_duration_seconds_bucket{le=\"0.005\"} 2"))
        #expect(lines.contains("thumbkit_request_duration_seconds_bucket{le=\"0.25\"} 3"))
        #expect(lines.contains("thumbkit_request_duration_seconds_bucket{le=\"10\"} 3"))
        #expect(lines.contains("thumbkit_request_duration_seconds_bucket{le=\"+Inf\"} 4"))
        #expect(lines.contains("thumbkit_request_duration_seconds_count 4"))
        #expect(lines.contains("thumbkit_renders_in_flight 2"))
        #expect(lines.contains("thumbkit_queue_depth 5"))
        #expect(lines.contains("thumbkit_cache_hits_total 1"))
        #expect(lines.contains("# TYPE thumbkit_request_duration_seconds histogram"))
        #expect(text.hasSuffix("\n"))
    }
}
