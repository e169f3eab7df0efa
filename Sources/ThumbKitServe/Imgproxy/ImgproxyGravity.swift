// SPDX-License-Identifier: Apache-2.0
/// imgproxy's gravity (`g:`): which part of the source `fill` keeps. The lead maps it onto the
/// engine's gravity. Compass gravities may carry offsets (`ImgproxyRequest.gravityOffset`).
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
}
