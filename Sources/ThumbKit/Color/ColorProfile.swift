// SPDX-License-Identifier: Apache-2.0
/// An ICC profile as embedded in an image: its bytes, unparsed, and a 64-bit digest that keys
/// the transform cache. Two profiles are equal when their bytes are (the digest only speeds the
/// comparison up). Little CMS parses the bytes when a transform is first built.
public struct ColorProfile: Sendable, Hashable, CustomStringConvertible {
    /// The profile, exactly as embedded (reassembled from JPEG APP2 chunks, inflated from a PNG
    /// iCCP chunk) or as ThumbKit built it from PNG gAMA / cHRM chunks.
    public let data: [UInt8]
    /// FNV-1a (64-bit) of `data`: cheap (a profile is a few kB), and only a cache key, never
    /// trusted alone.
    public let digest: UInt64

    public init(iccData: [UInt8]) {
        self.data = iccData
        self.digest = FNV1a.hash64(iccData)
    }

    /// The ICC header's data colour space signature (bytes 16–19): `RGB `, `GRAY`, `CMYK`, …,
    /// trailing spaces removed; empty when the profile is shorter than a header.
    public var colorSpaceSignature: String {
        guard data.count >= 128 else { return "" }
        let bytes = data[16..<20].map { (32...126).contains($0) ? $0 : UInt8(ascii: "?") }
        return String(decoding: bytes, as: UTF8.self).trimmingSuffixSpaces()
    }

    /// `ICC profile, RGB, 3144 bytes` (for logs).
    public var description: String { "ICC profile, \(colorSpaceSignature), \(data.count) bytes" }

    public static func == (a: ColorProfile, b: ColorProfile) -> Bool {
        a.digest == b.digest && a.data == b.data
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }
}

extension String {
    fileprivate func trimmingSuffixSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
