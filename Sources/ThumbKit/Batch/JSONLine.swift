// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One line of JSON as every ThumbKit command and server writes it (events, `--json` lines, the
/// web app's answers, notes kept in the catalog): keys sorted, `/` not escaped, no newline, so
/// the same value always gives the same bytes.
package enum JSONLine {
    /// `value` as one line of JSON; nil when it cannot be encoded (a non-finite number).
    package static func string(_ value: some Encodable) -> String? {
        bytes(value).map { String(decoding: $0, as: UTF8.self) }
    }

    /// As ``string(_:)``, as UTF-8 bytes.
    package static func bytes(_ value: some Encodable) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { [UInt8]($0) }
    }
}
