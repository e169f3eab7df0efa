// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality
/// Every tool the benchmark can time: ThumbKit itself, the peers people use today, and the
/// decode-only floors. The raw value names the tool in tables, JSON and the history.
package enum BenchTool: String, Sendable, Hashable, Codable, CaseIterable {
    /// `thumbkit thumb`.
    case thumbkit
    /// libvips' `vipsthumbnail`, one process for the whole set (libvips threads it).
    case vipsthumbnail
    /// ImageMagick 6 `mogrify` without a size hint: every JPEG decoded in full.
    case imagemagick
    /// ImageMagick 6 `mogrify` with `-define jpeg:size=` (libjpeg DCT scaling on load).
    case imagemagickHint = "imagemagick-hint"
    /// GraphicsMagick `gm mogrify` with `-size` (its JPEG size hint).
    case graphicsmagick
    /// Pillow through `scripts/peers/pillow_thumb.py` (a multiprocessing pool).
    case pillow
    /// The floor: libjpeg-turbo's `djpeg -scale M/8` alone, one process per file, at the DCT
    /// scale ThumbKit picks for that file.
    case djpegFloor = "floor-djpeg"
    /// The floor: ThumbKit's own decode at the scale it picks, nothing else
    /// (`thumbkit bench decode`).
    case decodeFloor = "floor-decode"

    /// What a tool stands for in the comparison.
    package enum Role: String, Sendable, Hashable, Codable {
        /// ThumbKit.
        case ours
        /// Another thumbnailer.
        case peer
        /// A lower bound on the time: decoding alone.
        case floor
    }

    /// Whether this is ThumbKit, a peer or a floor.
    package var role: Role {
        switch self {
        case .thumbkit: return .ours
        case .vipsthumbnail, .imagemagick, .imagemagickHint, .graphicsmagick, .pillow: return .peer
        case .djpegFloor, .decodeFloor: return .floor
        }
    }

    /// Whether the tool writes thumbnails that quality scoring can read (floors write none).
    package var writesOutputs: Bool { role != .floor }

    /// The peers, in table order.
    package static let peers: [BenchTool] = allCases.filter { $0.role == .peer }

    /// The floors, in table order.
    package static let floors: [BenchTool] = allCases.filter { $0.role == .floor }
}
