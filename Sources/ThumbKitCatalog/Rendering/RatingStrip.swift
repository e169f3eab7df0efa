// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// The three pictures a rating strip is drawn from, decoded, in any sizes (each is fitted into
/// the icon box, centred, on transparency).
public struct RatingIcons: Sendable, Hashable {
    /// An empty star.
    public var empty: PixelBuffer
    /// A half star; nil to synthesise one from `empty` and `full` (see `RatingStrip.halfIcon`).
    public var half: PixelBuffer?
    /// A full star.
    public var full: PixelBuffer

    public init(empty: PixelBuffer, half: PixelBuffer? = nil, full: PixelBuffer) {
        self.empty = empty
        self.half = half
        self.full = full
    }
}

/// Rating strips: five icons in a row showing a rating of 0 to 5 in steps of 0.5, as the Scary
/// Bugs app shows them (3.5 is three full icons, one half icon and one empty icon).
///
/// Icons are resized into their box (`fit`, centred on transparency) with the same resampler as
/// thumbnails, then drawn onto the strip with Porter-Duff "over" (`PixelBuffer.draw`, computed in
/// premultiplied form), so soft edges blend correctly with a non-transparent background.
public enum RatingStrip {
    /// Icons per strip.
    public static let iconCount = 5

    /// Which picture one icon position shows.
    public enum IconState: String, Sendable, Hashable, CaseIterable {
        case empty, half, full
    }

    /// The five icon states of `rating`, left to right: position *i* is full when the rating is
    /// at least *i* + 1, half when it is *i* + 0.5, else empty.
    public static func states(for rating: Rating) -> [IconState] {
        (0..<iconCount).map { index in
            let halves = rating.halfStars - 2 * index
            return halves >= 2 ? .full : halves == 1 ? .half : .empty
        }
    }

    /// A half icon made from two icons of the same size: the columns left of the middle come from
    /// `full`, the rest from `empty` (for an odd width, the middle column is `empty`'s, so a half
    /// star never shows more than half).
    public static func halfIcon(empty: PixelBuffer, full: PixelBuffer) -> PixelBuffer {
        precondition(
            empty.width == full.width && empty.height == full.height,
            "The empty and full icons must have the same size to be split.")
        var half = empty
        let split = full.width / 2
        let rowBytes = full.rowBytes
        for row in 0..<full.height {
            let start = row * rowBytes
            half.pixels.replaceSubrange(start..<(start + split * 4), with: full.pixels[start..<(start + split * 4)])
        }
        return half
    }

    /// `icon` fitted into a `side`×`side` box, centred on transparency.
    static func boxed(_ icon: PixelBuffer, side: Int) -> PixelBuffer {
        if icon.width == side, icon.height == side { return icon }
        let options = ResizeOptions(width: side, height: side, mode: .pad, background: .transparent)
        return ImageProcessors.Resize(options).process(icon)
    }

    /// The three icons at `side` pixels, the half one synthesised when not given.
    public static func iconSet(_ icons: RatingIcons, side: Int) -> [IconState: PixelBuffer] {
        let empty = boxed(icons.empty, side: side)
        let full = boxed(icons.full, side: side)
        let half = icons.half.map { boxed($0, side: side) } ?? halfIcon(empty: empty, full: full)
        return [.empty: empty, .half: half, .full: full]
    }

    /// The strip for `rating` at `scale`.
    public static func render(_ rating: Rating, icons: RatingIcons, style: RatingStripStyle, scale: Int) -> PixelBuffer
    {
        render(rating, sized: iconSet(icons, side: style.iconPixels(scale: scale)), style: style, scale: scale)
    }

    /// The strip for `rating` from icons already at the strip's icon size.
    static func render(
        _ rating: Rating, sized: [IconState: PixelBuffer], style: RatingStripStyle, scale: Int
    ) -> PixelBuffer {
        let size = style.stripSize(scale: scale)
        var strip = PixelBuffer(width: size.width, height: size.height, fill: style.background)
        for (state, x) in zip(states(for: rating), style.iconOrigins(scale: scale)) {
            strip.draw(sized[state]!, x: x, y: 0)
        }
        return strip
    }

    /// Every strip: each rating 0, 0.5, … 5 at each of `style.scales`, icons resized once per
    /// scale. In rating order, then scale order.
    public static func renderAll(icons: RatingIcons, style: RatingStripStyle) -> [(
        rating: Rating, scale: Int, image: PixelBuffer
    )] {
        var result: [(rating: Rating, scale: Int, image: PixelBuffer)] = []
        let sized = Dictionary(
            uniqueKeysWithValues: style.scales.map { ($0, iconSet(icons, side: style.iconPixels(scale: $0))) })
        for rating in Rating.all {
            for scale in style.scales {
                result.append((rating, scale, render(rating, sized: sized[scale]!, style: style, scale: scale)))
            }
        }
        return result
    }
}
