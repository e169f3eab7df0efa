// SPDX-License-Identifier: Apache-2.0
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
