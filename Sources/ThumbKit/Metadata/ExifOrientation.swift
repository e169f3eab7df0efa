// SPDX-License-Identifier: Apache-2.0
/// The EXIF orientation tag (0x0112): how the stored pixels must be turned to display upright.
public enum ExifOrientation: Int, Sendable, Hashable, Codable, CaseIterable {
    /// 1: as stored.
    case up = 1
    /// 2: mirrored left-right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top-bottom.
    case downMirrored = 4
    /// 5: transposed (mirrored along the main diagonal).
    case leftMirrored = 5
    /// 6: needs a 90° clockwise turn.
    case right = 6
    /// 7: transversed (mirrored along the anti-diagonal).
    case rightMirrored = 7
    /// 8: needs a 90° counter-clockwise turn.
    case left = 8

    /// True for 5–8, where display width is the stored height.
    public var swapsAxes: Bool { rawValue >= 5 }
}
