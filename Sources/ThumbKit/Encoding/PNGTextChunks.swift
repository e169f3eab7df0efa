// SPDX-License-Identifier: Apache-2.0
import CThumbKit

/// Uncompressed PNG text chunks (`tEXt`): keyword and value pairs, in file order.
///
/// Keywords are 1 to 79 Latin-1 bytes; values are bytes (the freedesktop.org thumbnail keys
/// hold ASCII). The freedesktop.org thumbnail cache stores a thumbnail's source URI and mtime
/// in them, and readers look them up without decoding pixels.
package struct PNGTextChunks: Sendable, Hashable {
    /// One chunk.
    package struct Entry: Sendable, Hashable {
        /// The keyword, such as `Thumb::URI`.
        package var key: String
        /// The value's bytes.
        package var value: [UInt8]

        /// A chunk with a UTF-8 (in practice ASCII) value.
        package init(_ key: String, _ value: String) {
            self.key = key
            self.value = Array(value.utf8)
        }

        /// A chunk with raw value bytes.
        package init(key: String, value: [UInt8]) {
            self.key = key
            self.value = value
        }
    }

    /// The chunks, in file order.
    package var entries: [Entry]

    /// Chunks from `entries`.
    package init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The first value stored under `key`, as text (nil when absent).
    package subscript(key: String) -> String? {
        entries.first { $0.key == key }.map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// The `tEXt` chunks that come before the image data of the PNG `data`, read without
    /// decoding any pixel (zTXt and iTXt are not read). Fails with `.notAnImage` for bytes that
    /// are not a PNG and `.corrupt` for a PNG whose chunks before the image data are damaged.
    package static func read(_ data: [UInt8], path: String) throws(DecodeError) -> PNGTextChunks {
        var entries: UnsafeMutablePointer<tk_png_text>? = nil
        var count = 0
        var err = CodecMessage.buffer()
        let rc = data.withUnsafeBufferPointer { bytes in
            err.withUnsafeMutableBufferPointer { e in
                tk_png_read_text(bytes.baseAddress, bytes.count, &entries, &count, e.baseAddress!)
            }
        }
        defer { tk_free(entries) }
        guard rc == 0 else {
            let reason = CodecMessage.text(err)
            if reason.lowercased() == "not a png file" { throw .notAnImage(path: path, reason: "not a PNG file") }
            throw .corrupt(path: path, reason: reason.isEmpty ? "unreadable PNG chunks" : reason)
        }
        var result: [Entry] = []
        for i in 0..<count {
            let entry = entries![i]
            let value = UnsafeRawBufferPointer(start: entry.value, count: entry.value_length)
            result.append(Entry(key: String(cString: entry.key), value: Array(value)))
        }
        return PNGTextChunks(result)
    }
}

extension ImageEncoders {
    /// Encodes `image` as an 8-bit RGBA (always four channels, even when opaque),
    /// non-interlaced PNG tagged sRGB, carrying `text` as `tEXt` chunks before the image data.
    /// A keyword libpng refuses (empty, longer than 79 bytes, or not Latin-1) fails the encode.
    /// `compression` is the filter and zlib setting (`PNGCompression.fast` for a cache file).
    package static func encodePNGRGBA(
        _ image: PixelBuffer, text: PNGTextChunks, compression: PNGCompression = .default, path: String = ""
    ) throws(EncodeError) -> [UInt8] {
        // libpng would silently shorten a long keyword; refuse it instead (PNG: 1 to 79 bytes).
        for entry in text.entries where entry.key.utf8.isEmpty || entry.key.utf8.count > 79 {
            throw .codec(path: path, reason: "PNG text keyword '\(entry.key)' is not 1 to 79 bytes long")
        }
        var color = tk_png_color()
        color.has_srgb = 1
        let keys = text.entries.map { Array($0.key.utf8CString) }
        let values = text.entries.map { $0.value.map { CChar(bitPattern: $0) } + [0] }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var err = CodecMessage.buffer()
        let rc = withCStrings(keys + values) { pointers -> Int32 in
            var chunks: [tk_png_text] = []
            for (i, entry) in text.entries.enumerated() {
                chunks.append(
                    tk_png_text(key: pointers[i], value: pointers[keys.count + i], value_length: entry.value.count))
            }
            return image.pixels.withUnsafeBufferPointer { px in
                chunks.withUnsafeBufferPointer { c in
                    err.withUnsafeMutableBufferPointer { e in
                        tk_png_encode_text(
                            px.baseAddress, UInt32(image.width), UInt32(image.height), 4,
                            Int32(max(0, min(9, compression.level))), compression.isFast ? 1 : 0, &color, nil, 0,
                            c.baseAddress,
                            c.count, &out, &size, e.baseAddress!)
                    }
                }
            }
        }
        defer { tk_free(out) }
        guard rc == 0, let out else {
            let reason = CodecMessage.text(err)
            throw .codec(path: path, reason: reason.isEmpty ? "encoder failed without a message" : reason)
        }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }

    /// Calls `body` with stable pointers to every string of `strings` (each NUL-terminated).
    private static func withCStrings<R>(
        _ strings: [[CChar]], _ body: ([UnsafePointer<CChar>?]) -> R
    ) -> R {
        func step(_ index: Int, _ done: [UnsafePointer<CChar>?]) -> R {
            if index == strings.count { return body(done) }
            return strings[index].withUnsafeBufferPointer { step(index + 1, done + [$0.baseAddress]) }
        }
        return step(0, [])
    }
}
