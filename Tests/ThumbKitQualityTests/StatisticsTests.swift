// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKit
@testable import ThumbKitQuality

struct StatisticsTests {
    @Test func anOddCountHasTheMiddleValueAsMedian() throws {
        let s = try #require(Statistics.Summary([5, 1, 4, 2, 3]))
        #expect(s.count == 5)
        #expect(s.min == 1)
        #expect(s.max == 5)
        #expect(s.mean == 3)
        #expect(s.median == 3)
        // h = (5 − 1)·0.95 = 3.8: 4 + 0.8·(5 − 4) = 4.8
        #expect(abs(s.p95 - 4.8) < 1e-12)
    }

    @Test func anEvenCountHasTheMeanOfTheTwoMiddleValuesAsMedian() throws {
        let s = try #require(Statistics.Summary([10, 40, 20, 30]))
        #expect(s.median == 25)
        #expect(s.mean == 25)
        #expect(s.min == 10)
        #expect(s.max == 40)
        // h = 3·0.95 = 2.85: 30 + 0.85·10 = 38.5
        #expect(abs(s.p95 - 38.5) < 1e-12)
    }

    @Test func oneValueIsEveryStatistic() throws {
        let s = try #require(Statistics.Summary([7.25]))
        #expect(s.count == 1)
        #expect([s.min, s.max, s.mean, s.median, s.p95] == [7.25, 7.25, 7.25, 7.25, 7.25])
    }

    @Test func noValuesGiveNoSummaryAndNoPercentile() {
        #expect(Statistics.Summary([]) == nil)
        #expect(Statistics.percentile(50, of: []) == nil)
    }

    @Test(arguments: [
        // 1...20 sorted, n = 20, h = 19·p/100 (linear interpolation between closest ranks).
        (0.0, 1.0),  // the minimum
        (100.0, 20.0),  // the maximum
        (50.0, 10.5),  // h = 9.5: 10 + 0.5
        (95.0, 19.05),  // h = 18.05: 19 + 0.05
        (25.0, 5.75),  // h = 4.75: 5 + 0.75
        (10.0, 2.9),  // h = 1.9: 2 + 0.9
    ])
    func percentilesInterpolateBetweenTheTwoNearestRanks(p: Double, expected: Double) throws {
        let values = (1...20).reversed().map(Double.init)  // order must not matter
        let result = try #require(Statistics.percentile(p, of: values))
        #expect(abs(result - expected) < 1e-12)
    }

    @Test func percentilesMatchNumPyOnAnUnevenSample() throws {
        // numpy.percentile([0.3, 12.5, 7.0, 7.0, 2.25, 100.0, 41.5], [50, 90, 95]) (default
        // method 'linear') = [7.0, 64.9, 82.45]: sorted 0.3, 2.25, 7, 7, 12.5, 41.5, 100;
        // p90: h = 5.4 → 41.5 + 0.4·58.5 = 64.9; p95: h = 5.7 → 41.5 + 0.7·58.5 = 82.45.
        let values = [0.3, 12.5, 7.0, 7.0, 2.25, 100.0, 41.5]
        #expect(Statistics.percentile(50, of: values) == 7.0)
        #expect(abs(try #require(Statistics.percentile(90, of: values)) - 64.9) < 1e-12)
        #expect(abs(try #require(Statistics.percentile(95, of: values)) - 82.45) < 1e-12)
    }

    @Test func theSummaryEncodesAsPlainJSONNumbers() throws {
        let s = try #require(Statistics.Summary([1, 2]))
        let decoded = try JSONDecoder().decode(Statistics.Summary.self, from: JSONEncoder().encode(s))
        #expect(decoded == s)
        #expect(decoded.median == 1.5)
    }
}
