// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// `file://` URIs exactly as GLib's `g_filename_to_uri` writes them for a local path, and back.
///
/// The path's bytes are kept as bytes (Linux file names need not be UTF-8): every byte outside
/// GLib's set of path-safe characters (``unescaped``) becomes `%XX` with upper-case hex, so
/// spaces, `%`, `#`, UTF-8 and invalid UTF-8 all round-trip. The thumbnail cache names a file by
/// the MD5 of this text, so one different byte means a thumbnail no desktop finds.
public enum FileURI {
    /// The bytes `g_filename_to_uri` leaves as they are in a path (GLib's `UNSAFE_PATH` set,
    /// checked against `GLib.filename_to_uri` for every byte 1 to 255).
    public static let unescaped: Set<UInt8> = Set(
        Array("!$&'()*+,-./0123456789:=@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~".utf8))

    private static let hex = Array("0123456789ABCDEF".utf8)

    /// The URI of the absolute path `path` (raw bytes, starting with `/`).
    public static func uri(forAbsolutePath path: [UInt8]) -> String {
        precondition(path.first == UInt8(ascii: "/"), "A file URI needs an absolute path.")
        var out = Array("file://".utf8)
        out.reserveCapacity(out.count + path.count * 3)
        for byte in path {
            if unescaped.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)  // all ASCII
    }

    /// The URI of `path` as given (both are ``PathBytes`` strings: a name that is not UTF-8
    /// keeps its bytes), made absolute against `directory` when relative and cleaned as GIO's
    /// `g_file_new_for_path` does (`.`, `..` and repeated slashes removed, symlinks not resolved).
    public static func uri(forPath path: String, relativeTo directory: String) -> String {
        uri(forAbsolutePath: canonicalPath(PathBytes.bytes(path), relativeTo: PathBytes.bytes(directory)))
    }

    /// `path` made absolute against `directory` and lexically cleaned (GLib's
    /// `g_canonicalize_filename`): no `.` or `..` components and no empty ones.
    public static func canonicalPath(_ path: [UInt8], relativeTo directory: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let full = path.first == slash ? path : directory + [slash] + path
        var parts: [ArraySlice<UInt8>] = []
        for part in full.split(separator: slash, omittingEmptySubsequences: true) {
            if part.elementsEqual([UInt8(ascii: ".")]) { continue }
            if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        var out: [UInt8] = []
        for part in parts { out += [slash] + part }
        return out.isEmpty ? [slash] : out
    }

    /// The local path bytes of a `file://` URI with an empty or `localhost` host; nil for any
    /// other URI (another scheme, a remote host, a bad escape, an escaped NUL or slash-less path).
    public static func path(fromURI uri: String) -> [UInt8]? {
        let bytes = Array(uri.utf8)
        let prefix = Array("file://".utf8)
        guard bytes.count > prefix.count, Array(bytes.prefix(prefix.count)) == prefix else { return nil }
        var rest = Array(bytes.dropFirst(prefix.count))
        let localhost = Array("localhost".utf8)
        if rest.starts(with: localhost) { rest.removeFirst(localhost.count) }
        guard rest.first == UInt8(ascii: "/") else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < rest.count {
            let byte = rest[i]
            if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "?") { return nil }  // not a plain path
            if byte == UInt8(ascii: "%") {
                guard i + 2 < rest.count, let high = HexDigit.value(rest[i + 1]),
                    let low = HexDigit.value(rest[i + 2])
                else {
                    return nil
                }
                let decoded = high << 4 | low
                if decoded == 0 { return nil }
                out.append(decoded)
                i += 3
            } else {
                out.append(byte)
                i += 1
            }
        }
        return out
    }
}
