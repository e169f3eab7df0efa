// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// What `GET /metrics` reports, in Prometheus's text format (version 0.0.4): requests by status,
/// a latency histogram, renders running and waiting, and cache hits (304s and single-flight
/// shares).
package final class ServeMetrics: Sendable {
    /// The histogram's upper bounds in seconds (Prometheus's defaults, which cover a 304 at
    /// 0.5 ms up to a slow render).
    package static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Counts {
        var requests: [Int: Int] = [:]
        var bucketCounts = [Int](repeating: 0, count: ServeMetrics.buckets.count)
        var durationCount = 0
        var durationSum = 0.0
        var cacheHits = 0
    }

    /// Guards every counter.
    private let counts = Locked(Counts())

    package init() {}

    /// Counts one answered request.
    package func observe(status: Int, seconds: Double) {
        counts.withLock {
            $0.requests[status, default: 0] += 1
            $0.durationCount += 1
            $0.durationSum += seconds
            if let index = Self.buckets.firstIndex(where: { seconds <= $0 }) { $0.bucketCounts[index] += 1 }
        }
    }

    /// Counts one answer served without a render of its own (a 304, or a single-flight share).
    package func countCacheHit() {
        counts.withLock { $0.cacheHits += 1 }
    }

    /// Requests answered with `status` so far.
    package func requests(status: Int) -> Int {
        counts.withLock { $0.requests[status] ?? 0 }
    }

    /// The text of `/metrics`, with the gauges read now.
    package func exposition(rendersInFlight: Int, queueDepth: Int) -> String {
        let c = counts.withLock { $0 }
        var lines: [String] = []
        lines.append("# HELP thumbkit_requests_total Requests answered, by HTTP status.")
        lines.append("# TYPE thumbkit_requests_total counter")
        for (status, count) in c.requests.sorted(by: { $0.key < $1.key }) {
            lines.append("thumbkit_requests_total{status=\"\(status)\"} \(count)")
        }
        lines.append("# HELP thumbkit_request_duration_seconds Time from a complete request to its answer.")
        lines.append("# TYPE thumbkit_request_duration_seconds histogram")
        var cumulative = 0
        for (bound, count) in zip(Self.buckets, c.bucketCounts) {
            cumulative += count
            lines.append("thumbkit_request_duration_seconds_bucket{le=\"\(Self.format(bound))\"} \(cumulative)")
        }
        lines.append("thumbkit_request_duration_seconds_bucket{le=\"+Inf\"} \(c.durationCount)")
        lines.append("thumbkit_request_duration_seconds_sum \(Self.format(c.durationSum))")
        lines.append("thumbkit_request_duration_seconds_count \(c.durationCount)")
        lines.append("# HELP thumbkit_renders_in_flight Renders running now.")
        lines.append("# TYPE thumbkit_renders_in_flight gauge")
        lines.append("thumbkit_renders_in_flight \(rendersInFlight)")
        lines.append("# HELP thumbkit_queue_depth Renders waiting for a render thread.")
        lines.append("# TYPE thumbkit_queue_depth gauge")
        lines.append("thumbkit_queue_depth \(queueDepth)")
        lines.append("# HELP thumbkit_cache_hits_total Answers without a render of their own (304s, shared renders).")
        lines.append("# TYPE thumbkit_cache_hits_total counter")
        lines.append("thumbkit_cache_hits_total \(c.cacheHits)")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
