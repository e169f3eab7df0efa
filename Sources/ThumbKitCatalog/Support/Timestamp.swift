// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Dates as the catalog stores them: ISO 8601 UTC text with milliseconds
/// (`2024-05-01T12:00:00.123Z`), readable in the `sqlite3` shell and sortable as text.
package enum Timestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS.sssZ` (truncated to the millisecond).
    package static func string(from date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(millis.floorDiv(1000))
        let ms = Int(millis - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        guard year >= 0 else {
            return String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), ms)
        }
        // What the format above writes, without `String(format:)`, which took a fifth of an
        // import's client time (a time per record added).
        var text = ""
        text.reserveCapacity(24)
        for (value, width, after) in [
            (year, 4, "-"), (Int(parts.tm_mon) + 1, 2, "-"), (Int(parts.tm_mday), 2, "T"), (Int(parts.tm_hour), 2, ":"),
            (Int(parts.tm_min), 2, ":"), (Int(parts.tm_sec), 2, "."), (ms, 3, "Z"),
        ] {
            let digits = String(value)
            if digits.utf8.count < width { text += String(repeating: "0", count: width - digits.utf8.count) }
            text += digits
            text += after
        }
        return text
    }

    /// Reads a stored timestamp of `ref` (`bench run 3`) in the database at `location`,
    /// reporting a malformed one as corruption.
    package static func date(stored text: String, of ref: String, in location: String) throws(CatalogError) -> Date {
        guard let date = date(from: text) else {
            throw CatalogError.corrupt(path: location, reason: "\(ref) has a malformed time '\(text)'")
        }
        return date
    }

    /// Parses what `string(from:)` writes (the fraction is optional); nil for anything else.
    package static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<from + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        var millis = 0
        if bytes.count == 24, bytes[19] == UInt8(ascii: "."), let fraction = number(20, 3) {
            millis = fraction
        } else if bytes.count != 20 {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity (for dates before 1970).
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
