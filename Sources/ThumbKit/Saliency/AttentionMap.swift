// SPDX-License-Identifier: Apache-2.0
/// A coarse grid of "how much this spot draws the eye" scores, for ``SmartCrop``.
///
/// The image is averaged down to cells of `cell` × `cell` pixels (at most ``maxSide`` cells a
/// side). Each cell scores, in integers only (so every run and every machine agrees):
/// - edges: the magnitude of the luma Laplacian against its four neighbours, less a small
///   noise floor, doubled (texture and detail: subjects are usually sharper than backgrounds);
/// - saturation: max(R, G, B) − min(R, G, B), halved, less a floor (coloured things);
/// - skin: a bonus when the cell's colour passes a classic RGB skin-tone rule (faces, people);
/// all scaled by the cell's opacity (transparent parts draw nothing).
///
/// Averaging walks every pixel once, so it checks the deadline after each row of cells: once
/// the deadline has passed it stops, and the map is incomplete (``isComplete`` false, all scores 0).
struct AttentionMap {
    /// Cells across and down (each at least 1).
    let width: Int
    let height: Int
    /// Side of a cell in source pixels (the last row and column of cells may be partial).
    let cell: Int
    /// `width * height` scores, rows top-down, each ≥ 0.
    let scores: [Int32]
    /// False when the deadline passed before every cell was averaged (the scores are then all 0).
    let isComplete: Bool

    /// The most cells on the longer side.
    static let maxSide = 160
    /// Laplacian magnitudes up to this are treated as noise (gently noisy or JPEG-soft areas).
    static let edgeFloor: Int32 = 12
    /// Half-saturations up to this are treated as grey.
    static let saturationFloor: Int32 = 16
    /// What a skin-coloured cell adds.
    static let skinBonus: Int32 = 96

    init(_ image: PixelBuffer, deadline: Deadline = .never) {
        let cell = max(1, (max(image.width, image.height) + Self.maxSide - 1) / Self.maxSide)
        let w = (image.width + cell - 1) / cell
        let h = (image.height + cell - 1) / cell
        // Cell averages (straight RGB, alpha), summed in Int: at most cell² × 255 each.
        var r = [Int32](repeating: 0, count: w * h)
        var g = r
        var b = r
        var a = r
        let averaged: Bool = image.pixels.withUnsafeBufferPointer { px in
            var sums = [Int](repeating: 0, count: w * 4)
            for cy in 0..<h {
                if deadline.hasPassed { return false }
                for i in sums.indices { sums[i] = 0 }
                let y0 = cy * cell
                let y1 = min(y0 + cell, image.height)
                for y in y0..<y1 {
                    var i = y * image.width * 4
                    for x in 0..<image.width {
                        let c = (x / cell) * 4
                        sums[c] += Int(px[i])
                        sums[c + 1] += Int(px[i + 1])
                        sums[c + 2] += Int(px[i + 2])
                        sums[c + 3] += Int(px[i + 3])
                        i += 4
                    }
                }
                for cx in 0..<w {
                    let count = (min(cx * cell + cell, image.width) - cx * cell) * (y1 - y0)
                    let j = cy * w + cx
                    r[j] = Int32((sums[cx * 4] + count / 2) / count)
                    g[j] = Int32((sums[cx * 4 + 1] + count / 2) / count)
                    b[j] = Int32((sums[cx * 4 + 2] + count / 2) / count)
                    a[j] = Int32((sums[cx * 4 + 3] + count / 2) / count)
                }
            }
            return true
        }
        self.width = w
        self.height = h
        self.cell = cell
        self.isComplete = averaged
        guard averaged else {
            self.scores = [Int32](repeating: 0, count: w * h)
            return
        }
        var luma = [Int32](repeating: 0, count: w * h)
        for j in luma.indices {
            let weighted: Int32 = 77 * r[j] + 150 * g[j] + 29 * b[j]
            luma[j] = (weighted + 128) >> 8
        }
        var scores = [Int32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let j = y * w + x
                // Borders repeat the edge cell, so an image's own border is not an edge.
                let left = luma[y * w + max(x - 1, 0)]
                let right = luma[y * w + min(x + 1, w - 1)]
                let up = luma[max(y - 1, 0) * w + x]
                let down = luma[min(y + 1, h - 1) * w + x]
                let neighbours: Int32 = left + right + up + down
                let laplacian: Int32 = abs(4 * luma[j] - neighbours)
                let edges: Int32 = 2 * max(0, laplacian - Self.edgeFloor)
                let spread: Int32 = max(r[j], g[j], b[j]) - min(r[j], g[j], b[j])
                let saturation: Int32 = max(0, spread / 2 - Self.saturationFloor)
                let skin: Int32 = Self.isSkin(r[j], g[j], b[j]) ? Self.skinBonus : 0
                let score: Int32 = edges + saturation + skin
                scores[j] = score * a[j] / 255
            }
        }
        self.scores = scores
    }

    /// Kovač, Peer and Solina's rule for skin under daylight (straight 8-bit sRGB).
    static func isSkin(_ r: Int32, _ g: Int32, _ b: Int32) -> Bool {
        let spread: Int32 = max(r, g, b) - min(r, g, b)
        return r > 95 && g > 40 && b > 20 && spread > 15 && abs(r - g) > 15 && r > g && r > b
    }
}
