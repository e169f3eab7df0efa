// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitDesktop

/// `thumbkit thumbnailer -s SIZE INPUT OUTPUT`: one thumbnail, with `gdk-pixbuf-thumbnailer`'s
/// calling convention, so a desktop entry (`thumbkit.thumbnailer`) can make ThumbKit the
/// desktop's thumbnailer for every format it reads.
enum ThumbnailerCommand: Command {
    static let spec = CommandSpec(
        name: "thumbnailer", abstract: "Make one desktop thumbnail (gdk-pixbuf-thumbnailer's convention).",
        discussion: """
            INPUT is a path or a file:// URI; OUTPUT is the PNG to write (through a temporary \
            name in its folder). The image is fitted inside SIZE×SIZE, never enlarged, upright \
            by its EXIF orientation and in sRGB, and written as an 8-bit RGBA PNG with the \
            freedesktop.org tEXt chunks (Thumb::URI, Thumb::MTime, Thumb::Size, …). On failure \
            it prints one line on stderr and exits non-zero. GNOME calls it from \
            thumbkit.thumbnailer as: thumbkit thumbnailer -s %s %u %o

            Example:
              thumbkit thumbnailer -s 256 file:///home/me/photo.jpg /tmp/out.png
            """,
        positionals: [
            .required("input", help: "The image: a path or a file:// URI."),
            .required("output", help: "The PNG to write."),
        ],
        options: [size] + LimitOptions.all)

    /// `-s N`: the box's side.
    static let size: OptionKey<Int> = .integer(
        "size", short: "s", in: 1...16_384, default: 128, help: "The box's side in pixels.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let box = try arguments[size]
        let input = arguments.argument("input")!
        let output = arguments.argument("output")!
        guard let (path, uri) = source(input) else {
            context.printError("\(input): not a local path or file:// URI")
            return .failure
        }
        if FileIO.isSameFile(path, output) {
            context.printError("\(output): is the input itself")
            return .failure
        }
        do {
            var st = stat()
            guard PathBytes.withCString(path, { stat($0, &st) }) == 0 else {
                throw DecodeError.unreadable(path: path, reason: String(cString: strerror(errno)).lowercased())
            }
            let decode = DesktopThumbnailer.strictDecode(limits: try LimitOptions.limits(arguments))
            let data = try FileIO.read(path, maxBytes: decode.limits.maxFileBytes)
            let rendered = try DesktopThumbnailer.render(data, path: path, boxes: [box], decode: decode)
            let metadata = DesktopThumbnailer.metadata(
                uri: uri, mtime: Int(st.st_mtim.tv_sec), size: Int(st.st_size), header: rendered.header,
                software: VersionInfo.versionLine)
            let bytes = try DesktopThumbnailer.encodePNG(rendered.images[0], text: metadata.textChunks, path: output)
            try FileIO.writeAtomically(bytes, to: output, durable: false)
            return .success
        } catch {
            context.report(error)
            return .failure
        }
    }

    /// The local path (a ``PathBytes`` string) and canonical URI of INPUT: a `file://` URI is
    /// decoded to its path bytes, UTF-8 or not (and re-encoded, so the URI is GLib's spelling);
    /// a path is taken from the working directory.
    static func source(_ input: String) -> (String, String)? {
        if input.hasPrefix("file:") {
            guard let bytes = FileURI.path(fromURI: input) else { return nil }
            return (PathBytes.string(bytes), FileURI.uri(forAbsolutePath: bytes))
        }
        if input.contains("://") { return nil }
        return (input, FileURI.uri(forPath: input, relativeTo: PathBytes.currentDirectory()))
    }
}
