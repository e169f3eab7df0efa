// SPDX-License-Identifier: Apache-2.0
/// One ASCII hex digit's value: what the percent-decoding of `file://` URIs (ThumbKitDesktop)
/// and of PostgreSQL URLs (ThumbKitCatalog) share.
package enum HexDigit {
    /// The value of `0`–`9`, `a`–`f` or `A`–`F`; nil for any other byte.
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
