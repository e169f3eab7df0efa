// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// File paths are bytes on Linux, not text. ThumbKit carries them in `String`s, with every byte
/// that is not part of valid UTF-8 kept as one private-use scalar, U+10FF80 + (byte − 0x80)
/// (the idea of Python's "surrogateescape"), so nothing is lost: ``bytes(_:)`` gives back the
/// exact bytes to hand to the system, and ``display(_:)`` shows such a byte as `\xE9`.
///
/// The mapping is one-to-one: a valid name that itself contains one of those 128 scalars has
/// its bytes escaped as well, so every escape scalar stands for exactly one byte.
package enum PathBytes {
    /// The first of the 128 scalars that stand for the raw bytes 0x80…0xFF.
    static let escapeBase: UInt32 = 0x10_FF00

    /// True for a scalar that stands for a raw byte.
    static func isEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= escapeBase + 0x80 && scalar.value <= escapeBase + 0xFF
    }

    /// The string that stands for the path `bytes` (no NUL).
    package static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let array = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < array.count {
            let (scalar, length) = decodeOne(array, at: i)
            if let scalar, !isEscape(scalar) {
                scalars.append(scalar)
                i += length
            } else {
                // Invalid here, or a real escape scalar: escape each byte of it.
                let end = scalar == nil ? i + 1 : i + length
                for byte in array[i..<end] { scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
                i = end
            }
        }
        return String(scalars)
    }

    /// The bytes of the path `path` stands for.
    package static func bytes(_ path: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if isEscape(scalar) {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Calls `body` with the path's bytes as a NUL-terminated C string, for system calls.
    package static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var raw = bytes(path).map { CChar(bitPattern: $0) }
        raw.append(0)
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `path` for people: each raw byte as `\xE9` (the CLI's `Terminal.oneLine` also shows
    /// control characters as `?` on stderr; JSON escapes them itself).
    package static func display(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if isEscape(scalar) {
                let hex = String(scalar.value - escapeBase, radix: 16, uppercase: true)
                out += "\\x" + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// True when the path has bytes that are not valid UTF-8.
    package static func hasRawBytes(_ path: String) -> Bool {
        path.unicodeScalars.contains(where: isEscape)
    }

    /// The working directory of this process, as ``string(_:)`` of its bytes (`getcwd`), so a
    /// folder name that is not UTF-8 survives; `.` when it cannot be read.
    package static func currentDirectory() -> String {
        guard let raw = getcwd(nil, 0) else { return "." }
        defer { free(raw) }
        return string(UnsafeBufferPointer(start: raw, count: strlen(raw)).map { UInt8(bitPattern: $0) })
    }

    /// The command-line arguments of this process, as ``string(_:)`` of their bytes.
    package static func processArguments() -> [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            return string(UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) })
        }
    }

    /// One UTF-8 sequence at `i`: its scalar and length, or nil when the bytes there are not
    /// valid UTF-8 (bad lead, missing continuation, overlong form, surrogate, over U+10FFFF).
    private static func decodeOne(_ b: [UInt8], at i: Int) -> (Unicode.Scalar?, Int) {
        let lead = b[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x1_0000, UInt32(lead & 0x07))
        default: return (nil, 1)
        }
        guard i + length <= b.count else { return (nil, 1) }
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (nil, 1) }
        return (scalar, length)
    }
}
