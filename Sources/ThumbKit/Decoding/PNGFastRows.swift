// SPDX-License-Identifier: Apache-2.0
import CDeflate

#if canImport(Glibc)
    import Glibc
#endif

/// The PNG fast path: a plainly well-formed, non-interlaced 8-bit gray, gray+alpha, RGB or RGBA
/// file (`tk_png_rows_plain_channels`) whose IDAT stream is inflated by libdeflate in one call
/// and unfiltered here, row by row, into the RGBA8 rows libpng would give.
///
/// libpng still reads everything before the first IDAT (and so every header warning and
/// error). The fast path is taken only when libpng's own reading of the IDAT chunks could
/// neither warn nor fail: consecutive IDAT chunks inside the file, every CRC right, one zlib
/// stream with a 32 KB window (so no distance can reach past the declared window, which zlib
/// refuses and libdeflate would not check) ending exactly at the last IDAT byte, its adler32
/// right, exactly `height` rows, and every filter type 0 to 4. Anything else returns nil before
/// any row is produced, and the caller reads the file through libpng, which warns and fails
/// exactly as it always did.
final class PNGFastRows {
    /// The inflated, filtered image: `height` rows of a filter byte and `rowBytes` bytes, each
    /// unfiltered in place when its row is taken.
    private var raw: [UInt8]
    private let channels: Int
    private let width: Int
    private let height: Int
    private let rowBytes: Int
    private var nextRow = 0
    /// The row above the first one.
    private let zeroRow: [UInt8]

    /// How much memory the fast path may hold for one file: the compressed stream (when it is
    /// split over several IDAT chunks) plus the raw image. Above it the file streams through
    /// libpng a row at a time.
    enum Budget: Sendable {
        /// Within four bytes a pixel of `limits.maxPixels` (the whole RGBA image a decode may
        /// already make) and never more than `maxBytes`: what any number of decodes may hold at
        /// once.
        case everyday
        /// Within four bytes a pixel of `limits.maxPixels` and never more than
        /// `heavySlotMaxBytes`: for one decode at a time, the one holding the heavy-decode slot
        /// (`HeavyDecodeSlot`).
        case heavySlot

        func bytes(_ limits: ImageLimits) -> Int {
            let (bytes, overflow) = limits.maxPixels.multipliedReportingOverflow(by: 4)
            return min(overflow ? .max : bytes, self == .heavySlot ? heavySlotMaxBytes : maxBytes)
        }
    }

    /// True when `source` may take the fast path with the heavy slot's budget but not with the
    /// everyday one: a non-interlaced PNG whose raw rows (at most 4 bytes a pixel plus a filter
    /// byte a row, from the header's channels) and compressed stream (at most the whole file)
    /// go over `maxBytes` and fit four bytes a pixel of the limits. An estimate from the header
    /// alone: the fast path itself checks the real sizes before it allocates.
    static func wantsHeavySlot(_ source: ImageSource, limits: ImageLimits) -> Bool {
        let header = source.header
        guard header.format == .png, !header.isProgressive, (1...4).contains(header.components) else { return false }
        let (rowBytes, o1) = header.width.multipliedReportingOverflow(by: header.components)
        let (rawRows, o2) = (rowBytes + 1).multipliedReportingOverflow(by: header.height)
        let (bytes, o3) = rawRows.addingReportingOverflow(source.bytes.count)
        return !o1 && !o2 && !o3 && bytes > maxBytes && bytes <= Budget.heavySlot.bytes(limits)
    }

    /// The cap on the everyday budget. libdeflate inflates only whole buffers, so the fast path holds
    /// the whole raw image where libpng's streaming holds a few rows: without a cap, a batch of
    /// 6 MP PNGs (`thumb -j 2`) peaked at 122 MB against 39.5 MB. 16 MiB keeps files up to about
    /// 5 MP of RGB (the icons, screenshots and most pictures a catalog holds) on the fast path and
    /// the peak within 2 × 16 MiB of the streaming path's.
    static let maxBytes = 16 << 20

    /// The cap on the heavy slot's budget: files up to about 16 MP of RGBA or 21 MP of RGB
    /// (wallpapers, camera PNGs, large screenshots) take the fast path one at a time, and the peak
    /// stays within 64 MiB of the streaming path's whatever the pixel limit (4 bytes a pixel of
    /// the default `maxPixels` would be 1 GiB).
    static let heavySlotMaxBytes = 64 << 20

    /// Inflates `file`'s IDAT stream, or returns nil when the file is not plainly well-formed or
    /// does not fit `budget` (checked before any allocation). `channels` is 1 to 4.
    init?(file: UnsafeBufferPointer<UInt8>, channels: Int, width: Int, height: Int, budget: Int) {
        guard (1...4).contains(channels), width > 0, height > 0 else { return nil }
        let (rowBytes, o1) = width.multipliedReportingOverflow(by: channels)
        let (rawRows, o2) = (rowBytes + 1).multipliedReportingOverflow(by: height)
        guard !o1, !o2, rawRows <= budget, let chunks = Self.idatChunks(file) else { return nil }
        let compressed = chunks.reduce(0) { $0 + $1.count }
        guard compressed >= 2, compressed <= budget - rawRows else { return nil }
        let firstByte = file[chunks[0].lowerBound]
        guard firstByte == 0x78 else { return nil }  // deflate, 32 KB window (zlib checks the rest)
        // libdeflate writes every byte, or the inflate fails and the buffer is dropped unread.
        var raw = [UInt8](unsafeUninitializedCapacity: rawRows) { buffer, count in
            Self.adviseHugePages(buffer)
            count = rawRows
        }
        let inflated: Bool
        if chunks.count == 1 {
            inflated = Self.inflate(UnsafeBufferPointer(rebasing: file[chunks[0]]), into: &raw)
        } else {
            var stream = [UInt8]()
            stream.reserveCapacity(compressed)
            for chunk in chunks { stream.append(contentsOf: file[chunk]) }
            inflated = stream.withUnsafeBufferPointer { Self.inflate($0, into: &raw) }
        }
        guard inflated else { return nil }
        for y in 0..<height where raw[y * (rowBytes + 1)] > 4 { return nil }  // libpng: bad filter
        self.raw = raw
        self.channels = channels
        self.width = width
        self.height = height
        self.rowBytes = rowBytes
        self.zeroRow = [UInt8](repeating: 0, count: rowBytes)
    }

    /// Asks the kernel for 2 MiB pages over the whole 2 MiB-aligned part of `buffer`, before
    /// anything touches it: a large image's buffer is a fresh mapping, and with 4 KiB pages
    /// its first writes cost a page fault each (12,000 for a 12 MP RGB image). Advice only:
    /// nothing changes where transparent huge pages are off.
    private static func adviseHugePages(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        let huge = 2 << 20
        guard buffer.count >= 2 * huge, let base = buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_HUGEPAGE)
    }

    /// The data ranges of the consecutive IDAT chunks from the first one on, or nil when a
    /// chunk runs past the end of the file or has a wrong CRC.
    private static func idatChunks(_ file: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        func be32(_ at: Int) -> UInt32 {
            UInt32(file[at]) << 24 | UInt32(file[at + 1]) << 16 | UInt32(file[at + 2]) << 8 | UInt32(file[at + 3])
        }
        let idat: UInt32 = 0x4944_4154
        var pos = 8
        var chunks: [Range<Int>] = []
        while pos <= file.count - 12 {
            let length = Int(be32(pos))
            let type = be32(pos + 4)
            guard length <= 0x7FFF_FFFF, length <= file.count - 12 - pos else { return nil }
            if type == idat {
                let crc = libdeflate_crc32(0, file.baseAddress! + pos + 4, length + 4)
                guard crc == be32(pos + 8 + length) else { return nil }
                chunks.append(pos + 8..<pos + 8 + length)
            } else if !chunks.isEmpty {
                return chunks
            }
            pos += 12 + length
        }
        return nil  // no chunk after the IDATs (not even IEND): libpng decides
    }

    /// One-call zlib inflate of `stream` into all of `raw`: true only when the stream is valid
    /// (adler32 included), ends exactly at its last byte and fills `raw` exactly.
    private static func inflate(_ stream: UnsafeBufferPointer<UInt8>, into raw: inout [UInt8]) -> Bool {
        guard let inflater = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(inflater) }
        var consumed = 0
        var produced = 0
        let result = raw.withUnsafeMutableBytes { out in
            libdeflate_zlib_decompress_ex(
                inflater, stream.baseAddress, stream.count, out.baseAddress, out.count, &consumed, &produced)
        }
        return result == LIBDEFLATE_SUCCESS && consumed == stream.count && produced == raw.count
    }

    /// Unfilters the next row and writes it as `width` RGBA8 pixels to `dst`.
    func next(into dst: UnsafeMutablePointer<UInt8>) {
        precondition(nextRow < height, "every PNG row was read")
        let y = nextRow
        nextRow += 1
        let stride = rowBytes + 1
        let (channels, width, rowBytes) = (channels, width, rowBytes)
        zeroRow.withUnsafeBufferPointer { zeros in
            raw.withUnsafeMutableBufferPointer { buffer in
                let row = buffer.baseAddress! + y * stride + 1
                let above = y > 0 ? UnsafePointer(row - stride) : zeros.baseAddress!
                PNGUnfilter.unfilter(
                    row, count: rowBytes, above: above, filter: row[-1], bytesPerPixel: channels)
                PNGUnfilter.widenToRGBA(UnsafePointer(row), channels: channels, width: width, into: dst)
            }
        }
    }
}
