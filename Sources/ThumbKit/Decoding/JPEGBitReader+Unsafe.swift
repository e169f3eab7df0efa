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
        let entry = Self.decode(buffer, table)
        let length = entry &>> 8
        guard length > 0, length <= bitCount else { return nil }
        buffer <<= UInt64(truncatingIfNeeded: length)
        bitCount &-= length
        return entry & 0xFF
    }

    /// The symbol whose code starts `window` (bits left-aligned) in the Huffman table at
    /// `table`, as `length << 8 | symbol`, or 0 for a code not in the table. Pure, so that the
    /// scan loops, which consume the bits themselves, keep the reader in registers.
    @inline(__always)
    static func decode(_ window: UInt64, _ table: UnsafePointer<Int32>) -> Int {
        let entry = Int(table[Int(window >> UInt64(64 - JPEGHuffmanTable.lookaheadBits))])
        return entry != 0 ? entry : longCode(window, table)
    }

    /// `decode` for a code longer than the lookahead (F.2.2.3): compares with the largest code
    /// of each length in turn.
    @inline(never)
    static func longCode(_ window: UInt64, _ table: UnsafePointer<Int32>) -> Int {
        var length = JPEGHuffmanTable.lookaheadBits + 1
        while length <= 16 {
            let code = Int32(truncatingIfNeeded: window >> UInt64(64 - length))
            if code <= table[JPEGHuffmanTable.maxCodeStart + length] {
                let index = Int(code + table[JPEGHuffmanTable.valueOffsetStart + length])
                return length << 8 | Int(table[JPEGHuffmanTable.symbolsStart + index])
            }
            length += 1
        }
        return 0
    }

    /// F.2.2.1 EXTEND: `raw`, `size` bits long, as a signed value (a leading 0 bit means negative).
    @inline(__always)
    static func extend(_ raw: Int, size: Int) -> Int {
        raw < 1 << (size - 1) ? raw - (1 << size) + 1 : raw
    }

    /// Skips the AC coefficients of one sequential block (F.2.2.2) without keeping them:
    /// `skip` is the block's `JPEGHuffmanTable.skipTable` (up to three symbols with their
    /// magnitude bits in one lookup), `table` its packed AC table for codes longer than the skip
    /// table's window. A run past position 63 ends the block as in libjpeg. False for a bad code
    /// or data running out.
    @_transparent  // see `keptAC`
    mutating func skipAC(skip: UnsafePointer<UInt32>, table: UnsafePointer<Int32>) -> Bool {
        var k = 1
        while true {
            if bitCount < 32 { fill() }
            let entry = skip[Int(buffer >> UInt64(64 - JPEGHuffmanTable.skipBits))]
            if entry != 0 {
                // Whole when every symbol but the last starts inside the block (an end-of-block
                // ends the entry); otherwise the first symbol alone, which always does.
                let whole = k &+ SkipEntry.beforeLast(entry) < 64
                let length = whole ? SkipEntry.bits(entry) : SkipEntry.firstBits(entry)
                guard length <= bitCount else { return false }
                buffer <<= UInt64(truncatingIfNeeded: length)
                bitCount &-= length
                k &+= whole ? SkipEntry.advance(entry) : SkipEntry.firstAdvance(entry)
                if (whole && SkipEntry.endsBlock(entry)) || k >= 64 { return true }
                continue
            }
            // A code longer than the skip table's window: code and magnitude (at most 16 + 15
            // bits) from the 32 just loaded.
            let long = Self.decode(buffer, table)
            let size = long & 15
            let length = (long &>> 8) &+ size
            guard long != 0, length <= bitCount else { return false }
            buffer <<= UInt64(truncatingIfNeeded: length)
            bitCount &-= length
            let rs = long & 0xFF
            if size != 0 {
                k &+= (rs &>> 4) &+ 1
            } else if rs == 0xF0 {
                k &+= 16
            } else {
                return true
            }
            if k >= 64 { return true }
        }
    }

    /// Decodes the AC coefficients of one sequential block (F.2.2.2), storing those whose
    /// zigzag position has a slot in `slots` (-1: not kept; a run past 63 lands on 63, as
    /// libjpeg's natural-order table makes it). Codes within the lookahead are read with their
    /// magnitude bits from one refill. False for a bad code or data running out.
    // Transparent rather than `@inline(__always)`, which the optimiser did not always honour for
    // this, `skipAC` and `dcDifference` inside the scan loop: the calls took the reader's
    // address, so its buffer went through memory on every symbol (measured 5 % slower decoding).
    @_transparent
    mutating func keptAC(
        table: UnsafePointer<Int32>, slots: UnsafePointer<Int8>, into block: UnsafeMutablePointer<Int16>
    )
        -> Bool
    {
        var k = 1
        while k < 64 {
            if bitCount < 32 { fill() }
            // The code (at most 16 bits) and its magnitude (at most 15), within the 32 loaded.
            let entry = Self.decode(buffer, table)
            let length = entry &>> 8
            let rs = entry & 0xFF
            let total = length &+ (rs & 15)
            guard length > 0, total <= bitCount else { return false }
            let raw = rs & 15 == 0 ? 0 : Int(truncatingIfNeeded: (buffer << UInt64(length)) >> UInt64(64 &- (rs & 15)))
            buffer <<= UInt64(truncatingIfNeeded: total)
            bitCount &-= total
            let size = rs & 15
            if size != 0 {
                k &+= rs &>> 4
                let slot = Int(slots[min(k, 63)])
                if slot >= 0 { block[slot] = Int16(truncatingIfNeeded: Self.extend(raw, size: size)) }
                k &+= 1
            } else if rs == 0xF0 {
                k &+= 16
            } else {
                return true
            }
        }
        return true
    }

    /// A DC difference (F.2.2.1): its category from the DC table at `table`, then that many
    /// magnitude bits, read from one refill when the code is within the lookahead. Nil for a bad
    /// code or data running out.
    @_transparent  // see `keptAC`
    mutating func dcDifference(table: UnsafePointer<Int32>) -> Int? {
        if bitCount < 32 { fill() }
        let entry = Self.decode(buffer, table)
        let length = entry &>> 8
        let size = entry & 15
        guard length > 0, length &+ size <= bitCount else { return nil }
        let raw = size == 0 ? 0 : Int(truncatingIfNeeded: (buffer << UInt64(length)) >> UInt64(64 &- size))
        buffer <<= UInt64(truncatingIfNeeded: length &+ size)
        bitCount &-= length &+ size
        return size == 0 ? 0 : Self.extend(raw, size: size)
    }

    /// At a restart boundary: drops the padding bits of the interval just read and consumes the
    /// marker RST`number`. False when more than padding is left or another marker follows.
    @inline(__always)
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
