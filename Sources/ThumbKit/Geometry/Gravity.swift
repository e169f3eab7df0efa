// SPDX-License-Identifier: Apache-2.0
/// Which part of the source a `fill` keeps when the scaled-to-cover image overflows the box.
///
/// Gravity only matters for ``ResizeMode/fill``; `fit`, `pad` and `stretch` keep the whole
/// source and ignore it (their identifiers never mention it). Directions and the focus point
/// are in the upright (EXIF-oriented) picture: north is the top of the image as displayed.
///
/// - ``centre``: the window is centred (the default, UIKit's geometry, byte for byte).
/// - the eight compass gravities: the window is pinned to that side or corner.
/// - ``focus(x:y:)``: the window is centred on a point, then moved back inside the image.
/// - ``smart``: the window goes where the picture draws the eye (see `docs/gravity.md`).
///
/// The centre and the compass gravities can also move their window by whole output pixels
/// (``shifted(x:y:)``), as imgproxy's gravity offsets do.
public struct Gravity: Sendable, Hashable, CustomStringConvertible {
    /// The cases, with the focus point kept in millionths so that equal identifiers always
    /// mean equal geometry.
    enum Kind: Sendable, Hashable {
        case centre, north, south, east, west, northEast, northWest, southEast, southWest
        /// 0...1_000_000 each: millionths of the upright width and height.
        case focus(xMillionths: Int, yMillionths: Int)
        case smart
    }

    let kind: Kind
    /// How far the window moves, in output pixels of the upright picture: right and down when
    /// positive. Always 0 for `focus` and `smart`; each within ±``maxShift``.
    let shiftX: Int
    let shiftY: Int

    init(_ kind: Kind, shiftX: Int = 0, shiftY: Int = 0) {
        self.kind = kind
        self.shiftX = shiftX
        self.shiftY = shiftY
    }

    /// The largest shift along either axis, in output pixels (larger ones are clamped to it;
    /// the window never leaves the image anyway).
    public static let maxShift = 1_000_000

    /// This gravity with its window moved `x` output pixels right and `y` down (negative values
    /// move it left and up), then kept inside the scaled image. The shift adds to any shift
    /// already made. Only the centre and the compass gravities move: a focus point and
    /// ``smart`` place their window themselves and are returned unchanged.
    public func shifted(x: Int, y: Int) -> Gravity {
        switch kind {
        case .focus, .smart: return self
        default:
            func clamp(_ value: Int, _ by: Int) -> Int {
                let sum = value.addingReportingOverflow(max(-Self.maxShift, min(Self.maxShift, by))).partialValue
                return max(-Self.maxShift, min(Self.maxShift, sum))
            }
            return Gravity(kind, shiftX: clamp(shiftX, x), shiftY: clamp(shiftY, y))
        }
    }

    /// The window's shift in output pixels (right, down), from ``shifted(x:y:)``.
    public var shift: (x: Int, y: Int) { (shiftX, shiftY) }

    /// The window centred on the image (the default).
    public static let centre = Gravity(.centre)
    /// The window pinned to the top edge, centred across.
    public static let north = Gravity(.north)
    /// The window pinned to the bottom edge, centred across.
    public static let south = Gravity(.south)
    /// The window pinned to the right edge, centred down.
    public static let east = Gravity(.east)
    /// The window pinned to the left edge, centred down.
    public static let west = Gravity(.west)
    /// The window pinned to the top-right corner.
    public static let northEast = Gravity(.northEast)
    /// The window pinned to the top-left corner.
    public static let northWest = Gravity(.northWest)
    /// The window pinned to the bottom-right corner.
    public static let southEast = Gravity(.southEast)
    /// The window pinned to the bottom-left corner.
    public static let southWest = Gravity(.southWest)
    /// The window placed where edges, saturated colour and skin tones are densest.
    public static let smart = Gravity(.smart)

    /// Why a focus point was refused.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// A coordinate that is NaN, infinite or outside 0...1 (`axis` is "x" or "y").
        case focusOutOfRange(axis: String)

        public var description: String {
            switch self {
            case .focusOutOfRange(let axis): "the focus point's \(axis) must be a number from 0 to 1"
            }
        }
    }

    /// The window centred on (`x`, `y`), fractions 0...1 of the upright source's width and
    /// height (0, 0 is the top-left corner), then clamped inside the image.
    ///
    /// Each coordinate is rounded to the nearest millionth (so -0 and 1e-300 are 0, and the
    /// identifier names the exact point used). NaN, infinities and values outside 0...1 throw.
    public static func focus(x: Double, y: Double) throws(Error) -> Gravity {
        Gravity(.focus(xMillionths: try millionths(x, axis: "x"), yMillionths: try millionths(y, axis: "y")))
    }

    private static func millionths(_ value: Double, axis: String) throws(Error) -> Int {
        // NaN fails every comparison, so it is refused here and never reaches `Int(_:)`, which traps.
        guard value.isFinite, value >= 0, value <= 1 else { throw .focusOutOfRange(axis: axis) }
        return Int((value * 1_000_000).rounded())
    }

    /// The focus point, when this is ``focus(x:y:)``.
    public var focusPoint: (x: Double, y: Double)? {
        guard case .focus(let x, let y) = kind else { return nil }
        return (Double(x) / 1_000_000, Double(y) / 1_000_000)
    }

    /// True for ``smart``, which needs the pixels to place its window.
    public var isSmart: Bool { kind == .smart }

    /// The point the window is centred on (before clamping), in fractions of the width and
    /// height; nil for ``smart``. Compass gravities use the edges themselves (0 or 1), which
    /// clamping turns into "pinned to that edge".
    var anchor: (x: Double, y: Double)? {
        switch kind {
        case .centre: (0.5, 0.5)
        case .north: (0.5, 0)
        case .south: (0.5, 1)
        case .east: (1, 0.5)
        case .west: (0, 0.5)
        case .northEast: (1, 0)
        case .northWest: (0, 0)
        case .southEast: (1, 1)
        case .southWest: (0, 1)
        case .focus: focusPoint
        case .smart: nil
        }
    }

    /// The name in identifiers and in `thumb --gravity`: `centre`, `north`, `north-east`, …,
    /// `smart`, and `focus:X,Y` with at most six decimals (`focus:0.25,0.7`). A shifted gravity
    /// adds its shift as signed pixels, right then down: `north+0+10`, `centre-8+0`.
    public var name: String {
        guard shiftX == 0 && shiftY == 0 else {
            func signed(_ v: Int) -> String { v < 0 ? String(v) : "+\(v)" }
            return Gravity(kind).name + signed(shiftX) + signed(shiftY)
        }
        return switch kind {
        case .centre: "centre"
        case .north: "north"
        case .south: "south"
        case .east: "east"
        case .west: "west"
        case .northEast: "north-east"
        case .northWest: "north-west"
        case .southEast: "south-east"
        case .southWest: "south-west"
        case .focus(let x, let y): "focus:\(Self.decimal(x)),\(Self.decimal(y))"
        case .smart: "smart"
        }
    }

    public var description: String { name }

    /// `millionths` / 10⁶ in plain decimals, trailing zeros dropped: 250000 → `0.25`,
    /// 1000000 → `1`, 0 → `0`. Integer arithmetic only.
    static func decimal(_ millionths: Int) -> String {
        precondition((0...1_000_000).contains(millionths), "A focus coordinate is 0...1_000_000 millionths.")
        let whole = millionths / 1_000_000
        let fraction = millionths % 1_000_000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// The compass gravities and `smart` by name, with the spellings `thumb --gravity` accepts.
    static let named: [String: Gravity] = [
        "centre": .centre, "center": .centre, "north": .north, "south": .south, "east": .east, "west": .west,
        "north-east": .northEast, "north-west": .northWest, "south-east": .southEast, "south-west": .southWest,
        "smart": .smart,
    ]

    /// Parses ``name``'s forms (and `center`): a compass name, `smart`, or `focus:X,Y` with X
    /// and Y plain decimals 0...1, and a compass name or `centre` followed by a shift, `+X+Y`
    /// with each sign `+` or `-` and at most 7 digits. Nil for anything else, including NaN,
    /// infinities, exponents and a shift on `smart` or a focus point.
    public init?(parsing text: String) {
        if let (base, x, y) = Self.splitShift(text) {
            guard let gravity = Self.named[base], !gravity.isSmart else { return nil }
            self = gravity.shifted(x: x, y: y)
            return
        }
        if let gravity = Self.named[text] {
            self = gravity
            return
        }
        guard text.hasPrefix("focus:") else { return nil }
        let parts = text.dropFirst("focus:".count).split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Self.plainDecimal(parts[0]), let y = Self.plainDecimal(parts[1]),
            let gravity = try? Self.focus(x: x, y: y)
        else { return nil }
        self = gravity
    }

    /// `name±X±Y` split into the name and the two shifts; nil when `text` does not end in two
    /// signed integers of 1...7 digits each.
    static func splitShift(_ text: String) -> (String, Int, Int)? {
        let bytes = Array(text.utf8)
        var signs: [Int] = []
        var i = bytes.count - 1
        while i >= 0, signs.count < 2 {
            let byte = bytes[i]
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                signs.append(i)
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                return nil
            }
            i -= 1
        }
        guard signs.count == 2 else { return nil }
        let (second, first) = (signs[0], signs[1])
        let xDigits = second - first - 1
        let yDigits = bytes.count - second - 1
        guard first > 0, (1...7).contains(xDigits), (1...7).contains(yDigits),
            let x = Int(String(decoding: bytes[first..<second], as: UTF8.self)),
            let y = Int(String(decoding: bytes[second...], as: UTF8.self))
        else { return nil }
        return (String(decoding: bytes[..<first], as: UTF8.self), x, y)
    }

    /// `digits[.digits]` or `.digits` (at most 24 characters) as a Double; nil for signs,
    /// exponents, hex, `nan`, `inf` and spaces.
    static func plainDecimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.count <= 24 else { return nil }
        var digits = 0
        var dots = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): dots += 1
            default: return nil
            }
        }
        guard digits > 0, dots <= 1 else { return nil }
        return Double(text)
    }

    /// This gravity for the pixels as stored, when they are shown turned by `orientation`:
    /// directions and the focus point are given upright, and geometry is planned in stored space.
    func stored(for orientation: ExifOrientation) -> Gravity {
        switch kind {
        case .centre where shiftX == 0 && shiftY == 0, .smart:
            return self
        case .focus(let x, let y):
            let (sx, sy) = Self.storedPoint(x, y, one: 1_000_000, orientation: orientation)
            return Gravity(.focus(xMillionths: sx, yMillionths: sy))
        default:
            // A compass anchor is a point with coordinates 0, 1/2 or 1: map it as halves. The
            // shift is a vector, so it turns without the translation (`one` 0).
            let (x, y) = anchor!
            let (sx, sy) = Self.storedPoint(Int(x * 2), Int(y * 2), one: 2, orientation: orientation)
            let (dx, dy) = Self.storedPoint(shiftX, shiftY, one: 0, orientation: orientation)
            let turned = Self.compass[sy * 3 + sx]
            return Gravity(turned.kind, shiftX: dx, shiftY: dy)
        }
    }

    /// Compass gravities by their anchor in halves: row (y) major, `compass[y * 3 + x]`.
    private static let compass: [Gravity] = [
        .northWest, .north, .northEast, .west, .centre, .east, .southWest, .south, .southEast,
    ]

    /// The stored point shown at upright (`x`, `y`), coordinates in 0...`one` (the inverse of
    /// `PixelBuffer.applying(_:)`'s permutation).
    static func storedPoint(_ x: Int, _ y: Int, one: Int, orientation: ExifOrientation) -> (Int, Int) {
        switch orientation {
        case .up: (x, y)
        case .upMirrored: (one - x, y)
        case .down: (one - x, one - y)
        case .downMirrored: (x, one - y)
        case .leftMirrored: (y, x)
        case .right: (y, one - x)
        case .rightMirrored: (one - y, one - x)
        case .left: (one - y, x)
        }
    }
}

extension Gravity: Codable {
    /// Decodes ``name``'s text form (a refused focus point is a data error, never a trap).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let gravity = Gravity(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a gravity: '\(text.prefix(64))'")
        }
        self = gravity
    }

    /// Encodes ``name``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
