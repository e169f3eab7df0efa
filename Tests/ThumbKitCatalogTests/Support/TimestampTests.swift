// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKitCatalog

/// `Timestamp.string(from:)` writes its digits by hand: the text must be what the
/// `%04d-%02d-%02dT%02d:%02d:%02d.%03dZ` format writes, and read back by `date(from:)`.
struct TimestampTests {
    /// The format, from the same broken-down UTC time.
    private func formatted(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t((millis - ((millis % 1000) + 1000) % 1000) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec),
            Int(millis - Int64(seconds) * 1000))
    }

    @Test func theTextIsWhatTheFormatWritesAndReadsBack() {
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 0.999), Date(timeIntervalSince1970: -0.001),
            Date(timeIntervalSince1970: 1_733_443_200.007),  // 2024-12-06T00:00:00.007Z
            Date(timeIntervalSince1970: 253_402_300_799.999),  // 9999-12-31T23:59:59.999Z
            Date(timeIntervalSince1970: 253_402_300_800),  // year 10000: five digits
            Date(timeIntervalSince1970: -62_135_596_800),  // 0001-01-01
        ]
        // 2,000 times spread over years 1 to 9999, at a step that is no whole number of seconds.
        for index in Int64(0)..<2_000 {
            dates.append(Date(timeIntervalSince1970: Double(-62_135_596_800_000 + index * 157_768_948_799) / 1000))
        }
        for date in dates {
            let text = Timestamp.string(from: date)
            #expect(text == formatted(date), "\(date.timeIntervalSince1970)")
        }
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_733_443_200.007)) == "2024-12-06T00:00:00.007Z")
        let sample = Date(timeIntervalSince1970: 1_733_443_261.5)
        #expect(Timestamp.date(from: Timestamp.string(from: sample)) == sample)
    }
}
