// SPDX-License-Identifier: Apache-2.0
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// The signing pairs of a key file (`thumbkit serve --key-file FILE`), so that keys and salts
/// need not sit on a command line, where every user of the machine can read them in
/// `/proc/PID/cmdline`. One pair per line, `KEY:SALT` in hex; blank lines and lines starting
/// with `#` are skipped. Several lines allow rotation, as several `--key`/`--salt` do.
///
/// No message quotes a key, a salt or any part of a line: a bad line is named by its number.
package enum ImgproxyKeyFile {
    /// The largest key file read: thousands of pairs, and a wrong path (a photo) is refused unread.
    package static let maxFileBytes = 64 << 10

    /// Why a key file could not be used; `description` is one line naming the file, never its contents.
    package enum FileError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Missing, unreadable, too large, or not a regular file.
        case unreadable(path: String, reason: String)
        /// Read, but a line is not `KEY:SALT` in hex, or there is no pair at all.
        case invalid(path: String, reason: String)

        package var description: String {
            switch self {
            case .unreadable(let path, let reason), .invalid(let path, let reason): "\(path): \(reason)"
            }
        }
    }

    /// The pairs in `text`, in file order. Checks the shape of each line only; the signer
    /// checks the hex.
    package static func pairs(parsing text: String) throws(ImgproxyError) -> [(key: String, salt: String)] {
        var pairs: [(key: String, salt: String)] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.filter { $0 != " " && $0 != "\t" && $0 != "\r" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw .invalidKey(reason: "line \(index + 1) is not KEY:SALT (its text is not shown)")
            }
            pairs.append((key: String(parts[0]), salt: String(parts[1])))
        }
        guard !pairs.isEmpty else { throw .invalidKey(reason: "no KEY:SALT line") }
        return pairs
    }

    /// The pairs of the key file at `path`, checked by the signer too (so a line with bad hex is
    /// refused here, by its number).
    package static func pairs(contentsOf path: String) throws(FileError) -> [(key: String, salt: String)] {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, maxBytes: maxFileBytes)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        do {
            let pairs = try Self.pairs(parsing: String(decoding: bytes, as: UTF8.self))
            _ = try ImgproxySigner(pairs: pairs)
            return pairs
        } catch {
            throw .invalid(path: path, reason: error.description)
        }
    }

    /// Whether users other than the owner (and its group) may read the file: worth a warning.
    package static func isReadableByOthers(_ path: String) -> Bool {
        var facts = stat()
        return stat(path, &facts) == 0 && facts.st_mode & S_IROTH != 0
    }
}
