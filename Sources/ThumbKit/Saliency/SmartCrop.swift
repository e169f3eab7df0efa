// SPDX-License-Identifier: Apache-2.0
/// Places a fill's crop window where the picture draws the eye (`Gravity.smart`), in the spirit
/// of libvips's `attention` crop: an ``AttentionMap`` of the (already shrunk-on-load) image,
/// a summed-area table of it, and the window position with the largest summed attention.
///
/// Every window position is tried in O(1) each through the table, so the search is linear in
/// the map's cells. Ties go to the position nearest the centred one, then to the top-left, so
/// the answer is a pure function of the pixels: integer arithmetic only until the final
/// fraction.
enum SmartCrop {
    /// The point to centre a window on: (`windowWidth`, `windowHeight`) are the window's size
    /// as fractions (0...1] of `image`'s width and height. An axis whose window covers the
    /// whole image gets 1/2; a window found against an edge gets exactly 0 or 1 (pinned).
    ///
    /// The map's pass over the pixels stops once `deadline` has passed; the anchor is then the
    /// centre, and the caller, which checks the deadline after resampling, discards the image.
    static func anchor(
        in image: PixelBuffer, windowWidth: Double, windowHeight: Double, deadline: Deadline = .never
    ) -> (x: Double, y: Double) {
        let map = AttentionMap(image, deadline: deadline)
        guard map.isComplete else { return (0.5, 0.5) }
        return anchor(in: map, windowWidth: windowWidth, windowHeight: windowHeight)
    }

    /// ``anchor(in:windowWidth:windowHeight:)`` on a ready map.
    static func anchor(in map: AttentionMap, windowWidth: Double, windowHeight: Double) -> (x: Double, y: Double) {
        let w = map.width
        let h = map.height
        let winW = cells(windowWidth, of: w)
        let winH = cells(windowHeight, of: h)
        if winW == w && winH == h { return (0.5, 0.5) }
        // table[(y) * (w + 1) + x]: the sum of scores above and left of cell (x, y).
        var table = [Int64](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var row: Int64 = 0
            for x in 0..<w {
                row += Int64(map.scores[y * w + x])
                table[(y + 1) * (w + 1) + x + 1] = table[y * (w + 1) + x + 1] + row
            }
        }
        let spanX = w - winW
        let spanY = h - winH
        var best: (sum: Int64, distance: Int, x: Int, y: Int) = (-1, .max, 0, 0)
        for oy in 0...spanY {
            for ox in 0...spanX {
                let sum =
                    table[(oy + winH) * (w + 1) + ox + winW] - table[oy * (w + 1) + ox + winW]
                    - table[(oy + winH) * (w + 1) + ox] + table[oy * (w + 1) + ox]
                // Twice the distance to the centred position, in cells (Manhattan).
                let distance = abs(2 * ox - spanX) + abs(2 * oy - spanY)
                if sum > best.sum || (sum == best.sum && distance < best.distance) {
                    best = (sum, distance, ox, oy)
                }
            }
        }
        return (centre(best.x, window: winW, of: w), centre(best.y, window: winH, of: h))
    }

    /// A window `fraction` of `count` cells long, in whole cells (1...count).
    static func cells(_ fraction: Double, of count: Int) -> Int {
        guard fraction.isFinite, fraction < 1 else { return count }
        return min(count, max(1, Int((fraction * Double(count)).rounded())))
    }

    /// The anchor along one axis for a `window`-cell window at cell `offset` of `count`: the
    /// window's centre as a fraction of the axis (``CropGeometry`` centres its window there),
    /// except that a window at either end gives exactly 0 or 1, so the crop is pinned to that
    /// edge whatever the rounding of cells to pixels.
    static func centre(_ offset: Int, window: Int, of count: Int) -> Double {
        if window == count { return 0.5 }
        if offset == 0 { return 0 }
        if offset == count - window { return 1 }
        return (Double(offset) + Double(window) * 0.5) / Double(count)
    }
}
