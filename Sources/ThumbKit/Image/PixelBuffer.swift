// SPDX-License-Identifier: Apache-2.0
/// An 8-bit RGBA image in memory: the one pixel type every ThumbKit stage reads and writes.
///
/// Rows are stored top-down, each `width * 4` bytes (no padding), channels in R, G, B, A order.
/// Alpha is *straight* (not premultiplied): the resampler premultiplies internally and
/// un-premultiplies its result, so callers never see premultiplied values.
public struct PixelBuffer: Sendable, Hashable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// `width * height * 4` bytes, RGBA, rows top-down.
    public var pixels: [UInt8]

    /// Wraps existing RGBA bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "PixelBuffer dimensions must be positive.")
        precondition(pixels.count == width * height * 4, "PixelBuffer needs width*height*4 bytes.")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A buffer filled with one colour.
    public init(width: Int, height: Int, fill: RGBA = .transparent) {
        precondition(width > 0 && height > 0, "PixelBuffer dimensions must be positive.")
        self.width = width
        self.height = height
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        if fill != .transparent {
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = fill.r
                bytes[i + 1] = fill.g
                bytes[i + 2] = fill.b
                bytes[i + 3] = fill.a
            }
        }
        self.pixels = bytes
    }

    /// Bytes per row.
    public var rowBytes: Int { width * 4 }

    /// Number of pixels.
    public var pixelCount: Int { width * height }

    /// True when any pixel is not fully opaque.
    public var hasTransparency: Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return true }
            i += 4
        }
        return false
    }

    /// The pixel at (x, y); for tests and small images, not for hot loops.
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            let i = (y * width + x) * 4
            return RGBA(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }
}

/// One 8-bit RGBA colour with straight alpha.
public struct RGBA: Sendable, Hashable, Codable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let white = RGBA(255, 255, 255)
    public static let black = RGBA(0, 0, 0)
    public static let transparent = RGBA(0, 0, 0, 0)

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` (the `#` optional) or a name: white, black, transparent.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "white": self = .white; return
        case "black": self = .black; return
        case "transparent", "none": self = .transparent; return
        default: break
        }
        var hex = Substring(text)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        let digits = hex.map { UInt8($0.hexDigitValue!) }
        switch digits.count {
        case 3:
            self.init(digits[0] * 17, digits[1] * 17, digits[2] * 17)
        case 6, 8:
            var bytes: [UInt8] = []
            for i in stride(from: 0, to: digits.count, by: 2) { bytes.append(digits[i] << 4 | digits[i + 1]) }
            self.init(bytes[0], bytes[1], bytes[2], bytes.count == 4 ? bytes[3] : 255)
        default:
            return nil
        }
    }

    /// `#rrggbbaa`, lower-case: the stable spelling used in identifiers.
    public var hex: String {
        func h(_ v: UInt8) -> String {
            let s = String(v, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(r) + h(g) + h(b) + h(a)
    }

    public var description: String { hex }
}
