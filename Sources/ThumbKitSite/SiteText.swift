// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// Dates and byte counts as the site shows them. A static site has no server to know the
/// reader's locale, so each value is written twice: machine-readable in an attribute
/// (`<time datetime="2026-12-01T19:08:27Z">`, `<data value="12345">`) and as readable English
/// text in UTC (`1 Dec 2026, 19:08 UTC`, `12.3 KB`). The site's small `site.js` then rewrites
/// the text in the reader's own language and time zone with the browser's `Intl`; without
/// JavaScript the English text stays.
package enum SiteText {
    /// The site's script file, relative to the site root.
    package static let scriptPath = "site.js"

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `1 Dec 2026, 19:08 UTC`: English, UTC, for readers without JavaScript.
    static func readableDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), \(time) UTC"
    }

    /// `<time datetime="…">1 Dec 2026, 19:08 UTC</time>`.
    package static func time(_ date: Date) -> String {
        "<time datetime=\"\(HTMLText.escape(Timestamp.string(from: date)))\">\(HTMLText.escape(readableDate(date)))</time>"
    }

    /// `850 bytes`, `12.3 KB`, `4.1 MB`: decimal units (1 KB = 1000 bytes), as Finder shows them.
    static func readableBytes(_ bytes: Int) -> String {
        if bytes == 1 { return "1 byte" }
        if bytes < 1000 { return "\(bytes) bytes" }
        var value = Double(bytes)
        var unit = 0
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        while value >= 999.95, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }

    /// `<data class="bytes" value="12345">12.3 KB</data>`.
    static func bytes(_ bytes: Int) -> String {
        "<data class=\"bytes\" value=\"\(bytes)\">\(readableBytes(bytes))</data>"
    }

    /// The site's only script: localises the `<time>` and `<data class="bytes">` texts. It
    /// touches nothing else, and any failure leaves the English text in place.
    package static let script = """
        // Written by thumbkit: shows dates and sizes in the reader's language and time zone.
        // Without it, the pages show them in English, UTC.
        (function () {
          try {
            var times = document.querySelectorAll("time[datetime]");
            for (var i = 0; i < times.length; i++) {
              var date = new Date(times[i].getAttribute("datetime"));
              if (!isNaN(date.getTime())) {
                times[i].textContent = date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
              }
            }
            var units = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"];
            var sizes = document.querySelectorAll("data.bytes[value]");
            for (var j = 0; j < sizes.length; j++) {
              var value = Number(sizes[j].getAttribute("value"));
              var unit = 0;
              while (value >= 999.95 && unit < units.length - 1) { value = value / 1000; unit++; }
              sizes[j].textContent = new Intl.NumberFormat(undefined, {
                style: "unit", unit: units[unit], unitDisplay: unit === 0 ? "long" : "short",
                minimumFractionDigits: unit === 0 ? 0 : 1, maximumFractionDigits: unit === 0 ? 0 : 1
              }).format(value);
            }
          } catch (error) {
            // An old browser: the English text stays.
          }
        })();

        """
}
