// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Output file names from a template, as vipsthumbnail's `-o`: `%s` is the input's base name
/// without its extension, `%d` the input's sub-folder below the folder argument it was found in
/// (empty at the top, so `mirror/%d/%s.jpg` mirrors a tree), and the template's extension picks
/// the format. With several scale factors, `@2x` / `@3x` goes before the extension (`icon.png`,
/// `icon@2x.png`).
package struct OutputTemplate: Sendable, Hashable {
    /// The pattern, e.g. `thumbs/%s_88.jpg`.
    package let pattern: String
    /// The format the outputs are written in.
    package let format: ImageFormat

    /// - Parameter format: overrides the extension's format; when the pattern has no image
    ///   extension, that format's extension is appended.
    package init(_ pattern: String, format: ImageFormat? = nil) {
        let ext = Self.splitExtension(pattern).ext
        if let format {
            self.format = format
            self.pattern = ImageFormat(fileExtension: ext) == nil ? pattern + "." + format.fileExtension : pattern
        } else if let fromExt = ImageFormat(fileExtension: ext) {
            self.format = fromExt
            self.pattern = pattern
        } else {
            self.format = .jpeg
            self.pattern = pattern + ".jpg"
        }
    }

    /// Why a template cannot be used as given.
    package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The extension names no format ThumbKit writes (`gif`).
        case unsupportedExtension(String)
        /// The extension names another format than the one asked for (`%s.png` with JPEG).
        case contradictsFormat(extension: String, format: ImageFormat)

        package var description: String {
            let known = ImageFormat.fileExtensions.filter(\.value.isWritable).keys.sorted().joined(separator: ", ")
            switch self {
            case .unsupportedExtension(let ext):
                return "'.\(ext)' is not an output format ThumbKit writes (extensions: \(known))"
            case .contradictsFormat(let ext, let format):
                return "the extension '.\(ext)' contradicts --format \(format.rawValue)"
            }
        }
    }

    /// A template checked strictly: an extension must name a format ThumbKit writes and agree
    /// with `format`; with no extension, `format`'s (or JPEG's) extension is appended.
    package init(validating pattern: String, format: ImageFormat?) throws(Problem) {
        let ext = Self.splitExtension(pattern).ext
        if !ext.isEmpty {
            guard let fromExt = ImageFormat(fileExtension: ext), fromExt.isWritable else {
                throw .unsupportedExtension(ext)
            }
            if let format, format != fromExt { throw .contradictsFormat(extension: ext, format: format) }
        }
        self.init(pattern, format: format)
    }

    /// True when the pattern has `%s`, so different inputs get different names.
    package var hasNamePlaceholder: Bool { pattern.contains("%s") }

    /// The folder every output lands in or below: the pattern's folder up to the first
    /// placeholder (`thumbs` for `thumbs/%d/%s.jpg`, `.` for `%s.jpg`).
    package var outputRoot: String {
        let head = pattern.range(of: "%").map { String(pattern[..<$0.lowerBound]) } ?? pattern
        guard let slash = head.lastIndex(of: "/") else { return "." }
        let folder = String(head[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// The output path for `input` at `scale` (1 has no suffix); `subfolder` fills `%d`.
    package func path(for input: String, subfolder: String = "", scale: Int = 1) -> String {
        let fileName = input.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? input
        let base = Self.splitExtension(fileName).stem
        // One pass, so a `%d` inside a file name is not expanded again.
        var filled = ""
        var rest = Substring(pattern)
        while let percent = rest.firstIndex(of: "%") {
            filled += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.hasPrefix("s") {
                filled += base
                rest = after.dropFirst()
            } else if after.hasPrefix("d") {
                rest = after.dropFirst()
                // An empty sub-folder takes its slash with it (`%d/x` is `x`, never `/x`).
                if subfolder.isEmpty { if rest.hasPrefix("/") { rest = rest.dropFirst() } } else { filled += subfolder }
            } else {
                filled += "%"
                rest = after
            }
        }
        filled += rest
        guard scale != 1 else { return filled }
        let parts = Self.splitExtension(filled)
        return parts.stem + "@\(scale)x" + (parts.ext.isEmpty ? "" : "." + parts.ext)
    }

    /// Splits `name.ext` at the last dot of the last path component.
    static func splitExtension(_ path: String) -> (stem: String, ext: String) {
        let lastSlash = path.lastIndex(of: "/")
        guard let dot = path.lastIndex(of: "."), dot > (lastSlash ?? path.startIndex),
            dot != path.startIndex, lastSlash.map({ path.index(after: $0) != dot }) ?? true
        else { return (path, "") }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }
}
