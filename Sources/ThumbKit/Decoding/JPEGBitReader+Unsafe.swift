// SPDX-License-Identifier: Apache-2.0
// The bit reader of the progressive DC decoder. Pointer code, fenced: it reads only inside the
// buffer it is given (every load is checked against `end`, which the initialiser checks against
// the buffer), and it lives only inside the `withUnsafeBufferPointer` call that made it.

/// Reads the bits of one scan's entropy-coded data (ITU T.81 F.2.2.5): most significant bit
/// first, a stuffed 0xFF00 read as 0xFF, stopping at any marker.
///
/// Strict: it never invents bits. libjpeg pads a short segment with zeros and warns; here a read
/// past the real data fails (returns nil), and the caller falls back to libjpeg.
struct JPEGBitReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Next byte to load.
    private var position: Int
    /// One past the last byte of the scan's data.
    private let end: Int
    /// Bits not yet consumed, left-aligned.
    private var buffer: UInt64 = 0
    /// How many bits of `buffer` are valid.
    private var bitCount = 0

    /// A reader of `bytes[data]`; `bytes` must outlive it.
    init(_ bytes: UnsafeBufferPointer<UInt8>, data: Range<Int>) {
        precondition(data.lowerBound >= 0 && data.upperBound <= bytes.count, "Scan data outside the file.")
        self.bytes = bytes
        self.position = data.lowerBound
        self.end = data.upperBound
    }

    /// Loads whole bytes until at least 57 bits are buffered or a marker (or the end) is reached.
    ///
    /// Fast case: when the next 8 bytes hold no 0xFF they are loaded as one big-endian word and
    /// as many whole bytes as fit are counted. The bits below the counted ones are the following
    /// stream bytes (never a stuffed pair: none is 0xFF), so a later load ORs the same bits there.
    @inline(__always)
    private mutating func fill() {
        if bitCount <= 55, position + 8 <= end {
            let word = UInt64(
                bigEndian: UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self))
            let inverted = ~word
            // Nonzero exactly when some byte of `inverted` is zero, i.e. some byte of `word` is 0xFF.
            if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 == 0 {
                let take = (63 - bitCount) >> 3
                buffer |= word >> UInt64(bitCount)
                position += take
                bitCount += take << 3
                return
            }
        }
        while bitCount <= 56, position < end {
            let byte = bytes[position]
            if byte == 0xFF {
                // Inside the data range an 0xFF is either stuffing (0xFF00) or a restart marker.
                guard position + 1 < end, bytes[position + 1] == 0 else { return }
                position += 2
            } else {
                position += 1
            }
            buffer |= UInt64(byte) << UInt64(56 - bitCount)
            bitCount += 8
        }
    }

    /// The next `n` bits (1...16) as an unsigned number, or nil past the data.
    @inline(__always)
    mutating func bits(_ n: Int) -> Int? {
        assert((1...16).contains(n))
        if bitCount < n {
            fill()
            if bitCount < n { return nil }
        }
        let value = Int(buffer >> UInt64(64 - n))
        buffer <<= UInt64(n)
        bitCount -= n
        return value
    }

    /// The next symbol of the Huffman table at `table` (a `JPEGHuffmanTable.packed` array), or
    /// nil for a code not in the table or one that runs past the data.
    @inline(__always)
    mutating func symbol(_ table: UnsafePointer<Int32>) -> Int? {
        if bitCount < 16 { fill() }
        let entry = table[Int(buffer >> UInt64(64 - JPEGHuffmanTable.lookaheadBits))]
        let length = Int(entry >> 8)
        if length > 0 {
            guard length <= bitCount else { return nil }
            buffer <<= UInt64(length)
            bitCount -= length
            return Int(entry & 0xFF)
        }
        // Longer codes (F.2.2.3): compare with the largest code of each length in turn.
        var length2 = JPEGHuffmanTable.lookaheadBits + 1
        while length2 <= 16 {
            let code = Int32(truncatingIfNeeded: buffer >> UInt64(64 - length2))
            if code <= table[JPEGHuffmanTable.maxCodeStart + length2] {
                guard length2 <= bitCount else { return nil }
                buffer <<= UInt64(length2)
                bitCount -= length2
                let index = Int(code + table[JPEGHuffmanTable.valueOffsetStart + length2])
                return Int(table[JPEGHuffmanTable.symbolsStart + index])
            }
            length2 += 1
        }
        return nil
    }

    /// F.2.2.1 EXTEND: `raw`, `size` bits long, as a signed value (a leading 0 bit means negative).
    @inline(__always)
    static func extend(_ raw: Int, size: Int) -> Int {
        raw < 1 << (size - 1) ? raw - (1 << size) + 1 : raw
    }

    /// Skips the AC coefficients of one sequential block (F.2.2.2) without keeping them:
    /// `skip` is the block's `JPEGHuffmanTable.skipTable` (code, magnitude bits and run in one
    /// lookup), `table` its packed AC table for codes the skip table does not fold. A run past
    /// position 63 ends the block as in libjpeg. False for a bad code or data running out.
    @inline(__always)
    mutating func skipAC(skip: UnsafePointer<UInt16>, table: UnsafePointer<Int32>) -> Bool {
        var k = 1
        while k < 64 {
            if bitCount < 32 { fill() }
            let entry = Int(skip[Int(buffer >> UInt64(64 - JPEGHuffmanTable.skipBits))])
            if entry != 0 {
                let length = entry & 31
                guard length <= bitCount else { return false }
                buffer <<= UInt64(truncatingIfNeeded: length)
                bitCount &-= length
                k &+= entry &>> 5
                continue
            }
            // A code of up to 9 bits whose magnitude bits make it longer than the skip table:
            // both at once from the lookahead (at most 9 + 15 bits, within the 32 just loaded).
            let short = Int(table[Int(buffer >> UInt64(64 - JPEGHuffmanTable.lookaheadBits))])
            if short != 0 {
                let size = short & 15
                let length = (short &>> 8) &+ size
                guard length <= bitCount else { return false }
                buffer <<= UInt64(truncatingIfNeeded: length)
                bitCount &-= length
                k &+= size != 0 ? ((short &>> 4) & 15) &+ 1 : (short & 0xFF) == 0xF0 ? 16 : 64
                continue
            }
            guard let rs = symbol(table) else { return false }
            let size = rs & 15
            if size != 0 {
                guard bits(size) != nil else { return false }
                k += (rs >> 4) + 1
            } else if rs == 0xF0 {
                k += 16
            } else {
                return true
            }
        }
        return true
    }

    /// At a restart boundary: drops the padding bits of the interval just read and consumes the
    /// marker RST`number`. False when more than padding is left or another marker follows.
    mutating func restart(expecting number: Int) -> Bool {
        guard atEndOfData() else { return false }
        guard position + 1 < end, bytes[position] == 0xFF, bytes[position + 1] == 0xD0 + UInt8(number & 7) else {
            return false
        }
        position += 2
        buffer = 0
        bitCount = 0
        return true
    }

    /// True when only padding (fewer than 8 bits) is left before the next marker or the end:
    /// the interval or scan held exactly the data its MCUs needed.
    func atEndOfData() -> Bool {
        guard bitCount < 8 else { return false }
        if position == end { return true }
        return bytes[position] == 0xFF && position + 1 < end && bytes[position + 1] != 0
    }

    /// `atEndOfData` after a scan's last MCU, where the marker that follows must not be a
    /// restart marker: one there means more entropy-coded data follows the scan, which libjpeg
    /// skips with a warning ("extraneous bytes before marker") as it reads on to EOI.
    func atEndOfScan() -> Bool {
        guard atEndOfData() else { return false }
        return position == end || !(0xD0...0xD7).contains(bytes[position + 1])
    }
}
