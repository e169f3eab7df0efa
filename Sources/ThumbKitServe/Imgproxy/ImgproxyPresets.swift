// SPDX-License-Identifier: Apache-2.0
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// Named option lists, from a presets file in imgproxy's syntax: one `name=option/option…` a
/// line, blank lines and `#` comments ignored. `pr:name` in a URL applies one; the preset named
/// `default` applies to every URL before its own options.
package struct ImgproxyPresets: Sendable, Hashable {
    /// The options of each preset, by name.
    package let options: [String: [ImgproxyOption]]

    /// No presets.
    package init() { options = [:] }

    /// Parses a presets file. Every preset is checked as a URL's options would be (unknown
    /// options, bad arguments, presets naming unknown presets), against generous limits: the
    /// server's own limits apply to each request.
    package init(parsing text: String) throws(ImgproxyError) {
        var parsed: [String: [ImgproxyOption]] = [:]
        for (index, rawLine) in Self.lines(text).enumerated() {
            let lineNumber = index + 1
            let line = Self.trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let halves = line.split(separator: "=", omittingEmptySubsequences: false)
            guard halves.count == 2 else {
                throw .invalidPreset(line: lineNumber, reason: "expected name=option/option")
            }
            let name = String(Self.trimmed(halves[0]))
            let value = Self.trimmed(halves[1])
            guard !name.isEmpty else { throw .invalidPreset(line: lineNumber, reason: "empty preset name") }
            guard !value.isEmpty else { throw .invalidPreset(line: lineNumber, reason: "empty preset '\(name)'") }
            guard parsed[name] == nil else {
                throw .invalidPreset(line: lineNumber, reason: "preset '\(name)' is defined twice")
            }
            var list: [ImgproxyOption] = []
            for segment in value.split(separator: "/", omittingEmptySubsequences: false) {
                guard let option = ImgproxyOption(segment: segment) else {
                    throw .invalidPreset(
                        line: lineNumber, reason: "'\(ImgproxyOptionState.quoted(segment))' is not an option name:args")
                }
                list.append(option)
            }
            parsed[name] = list
        }
        options = parsed
        let generous = ImgproxyLimits(maxDimension: 1 << 20, maxDPR: 64)
        for (name, list) in parsed.sorted(by: { $0.key < $1.key }) {
            var state = ImgproxyOptionState(limits: generous, presets: self)
            do {
                for option in list { try state.apply(option, usedPresets: [name]) }
            } catch {
                throw .invalidPreset(line: Self.line(of: name, in: text), reason: "preset '\(name)': \(error)")
            }
        }
    }

    /// The largest presets file read: far beyond any real one (a preset is a line of options),
    /// small enough that a wrong path (a photo, a log) is refused before it is read.
    package static let maxFileBytes = 1 << 20

    /// Why a presets file could not be used; `description` is one line naming the file.
    package enum FileError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Missing, unreadable, empty, or not a regular file.
        case unreadable(path: String, reason: String)
        /// Larger than `maxFileBytes` (refused before it is read).
        case tooLarge(path: String, bytes: Int, limit: Int)
        /// Read, but not a valid presets file.
        case invalid(path: String, reason: String)

        package var description: String {
            switch self {
            case .unreadable(let path, let reason), .invalid(let path, let reason): "\(path): \(reason)"
            case .tooLarge(let path, let bytes, let limit):
                "\(path): presets file is \(bytes) bytes, over the limit of \(limit) bytes"
            }
        }
    }

    /// Reads and parses the presets file at `path`, refusing it before reading when it is larger
    /// than `maxBytes`.
    package init(contentsOf path: String, maxBytes: Int = maxFileBytes) throws(FileError) {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, maxBytes: maxBytes)
        } catch {
            if case .overLimit = error {
                var facts = stat()
                let size = stat(path, &facts) == 0 ? Int(facts.st_size) : 0
                throw .tooLarge(path: path, bytes: size, limit: maxBytes)
            }
            throw .unreadable(path: path, reason: error.reason)
        }
        do {
            try self.init(parsing: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .invalid(path: path, reason: error.description)
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }

    private static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// The line that defines `name` (for a message; 0 if not found).
    private static func line(of name: String, in text: String) -> Int {
        for (index, line) in lines(text).enumerated() {
            let halves = trimmed(line).split(separator: "=", maxSplits: 1)
            if halves.count == 2, trimmed(halves[0]) == name { return index + 1 }
        }
        return 0
    }
}
