// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// imgproxy's gravity (`g:`): which part of the source `fill` keeps, mapped onto the engine's
/// ``Gravity`` by ``engineGravity``. Compass gravities may carry offsets (`ImgproxyRequest.gravityOffset`).
package enum ImgproxyGravity: Sendable, Hashable {
    case center, north, south, east, west, northEast, northWest, southEast, southWest
    /// Content-aware (imgproxy's `sm`).
    case smart
    /// A point in relative coordinates, each 0...1 (imgproxy's `fp:X:Y`).
    case focusPoint(x: Double, y: Double)

    /// The compass gravities by imgproxy's names (`sm` and `fp` take other arguments).
    static let compass: [String: ImgproxyGravity] = [
        "ce": .center, "no": .north, "so": .south, "ea": .east, "we": .west,
        "noea": .northEast, "nowe": .northWest, "soea": .southEast, "sowe": .southWest,
    ]

    /// imgproxy's name, with the focus point's coordinates for `fp`: the form in `identifier`.
    var canonicalName: String {
        switch self {
        case .center: "ce"
        case .north: "no"
        case .south: "so"
        case .east: "ea"
        case .west: "we"
        case .northEast: "noea"
        case .northWest: "nowe"
        case .southEast: "soea"
        case .southWest: "sowe"
        case .smart: "sm"
        case .focusPoint(let x, let y): "fp:\(CanonicalDecimal.format(x)):\(CanonicalDecimal.format(y))"
        }
    }

    /// The engine's gravity: `ce` centre, `no`/`so`/`ea`/`we` north/south/east/west, `noea`,
    /// `nowe`, `soea`, `sowe` the corners, `sm` smart, `fp:X:Y` the focus point (its coordinates
    /// were checked finite and within 0...1 when parsed; one that is not falls back to centre).
    var engineGravity: Gravity {
        switch self {
        case .center: .centre
        case .north: .north
        case .south: .south
        case .east: .east
        case .west: .west
        case .northEast: .northEast
        case .northWest: .northWest
        case .southEast: .southEast
        case .southWest: .southWest
        case .smart: .smart
        case .focusPoint(let x, let y): (try? Gravity.focus(x: x, y: y)) ?? .centre
        }
    }
}
