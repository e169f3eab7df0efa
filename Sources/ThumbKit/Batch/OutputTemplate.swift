import Foundation

/// Output file names from a template, as vipsthumbnail's `-o`: `%s` is the input's base name
/// without its extension, and the template's extension picks the format. With several scale
/// factors, `@2x` / `@3x` goes before the extension (`icon.png`, `icon@2x.png`).
public struct OutputTemplate: Sendable, Hashable {
    /// The pattern, e.g. `thumbs/%s_88.jpg`.
    public let pattern: String
    /// The format the outputs are written in.
    public let format: ImageFormat

    /// - Parameter format: overrides the extension's format; when the pattern has no image
    ///   extension, that format's extension is appended.
    public init(_ pattern: String, format: ImageFormat? = nil) {
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

    /// The output path for `input` at `scale` (1 has no suffix).
    public func path(for input: String, scale: Int = 1) -> String {
        let fileName = input.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? input
        let base = Self.splitExtension(fileName).stem
        let filled = pattern.replacingOccurrences(of: "%s", with: base)
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
