// SPDX-License-Identifier: Apache-2.0
/// Walks the marker segments of a JPEG header (everything before the first scan), without
/// decoding anything. Bounds-checked: a segment whose length runs past the data, or lost marker
/// sync, ends the walk; it never reads outside `bytes`.
public struct JPEGSegments: Sequence {
    /// One marker segment: its marker byte (`0xE1` for APP1) and its payload (after the length).
    public struct Segment {
        public var marker: UInt8
        public var payload: ArraySlice<UInt8>
    }

    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func makeIterator() -> Iterator {
        Iterator(bytes: bytes)
    }

    public struct Iterator: IteratorProtocol {
        let bytes: [UInt8]
        var i: Int
        var done: Bool

        init(bytes: [UInt8]) {
            self.bytes = bytes
            self.i = 2
            self.done = !(bytes.count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8)
        }

        public mutating func next() -> Segment? {
            while !done && i + 1 < bytes.count {
                guard bytes[i] == 0xFF else { break }  // lost sync
                var marker = bytes[i + 1]
                i += 2
                while marker == 0xFF, i < bytes.count {  // fill bytes before a marker
                    marker = bytes[i]
                    i += 1
                }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
                if marker == 0xD9 { break }
                guard i + 2 <= bytes.count else { break }
                let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                guard length >= 2, length <= bytes.count - i else { break }
                let segment = Segment(marker: marker, payload: bytes[(i + 2)..<(i + length)])
                i += length
                if marker == 0xDA { done = true }  // SOS: entropy-coded data follows; stop after it
                return segment
            }
            done = true
            return nil
        }
    }
}
