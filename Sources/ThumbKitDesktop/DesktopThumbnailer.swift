// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Fills a freedesktop.org thumbnail cache for one source file at a time: reads the existing
/// thumbnails' `tEXt` chunks first and decodes only when one of the requested sizes is missing
/// or stale, then makes every stale size from that one decode.
///
/// It writes only `<cache>/<size>/<md5>.png` and its own `<cache>/fail/thumbkit-<version>/`
/// entries, and replaces an existing file only when its `Thumb::URI` says it is a thumbnail of
/// this same source (a stale one): any other file at that name is left alone and reported.
public struct DesktopThumbnailer: Sendable {
    /// The cache to fill.
    public var cache: ThumbnailCache
    /// The sizes to make.
    public var sizes: [ThumbnailSize]
    /// Limits, EXIF orientation and colour conversion (sRGB) of the decode.
    public var decode: DecodeOptions
    /// The `Software` chunk, such as `thumbkit 0.1.0`.
    public var software: String
    /// The folder relative paths are taken from (for the URI), a ``PathBytes`` string.
    public var workingDirectory: String
    /// Memory-heavy decodes (`ThumbnailPipeline.isHeavy`) of the sources this thumbnailer (and
    /// its copies: `xdg`'s workers share it) processes take turns in it, as in `thumb` and `build`.
    package let heavySlot = HeavyDecodeSlot()

    /// How desktop thumbnails decode by default: strictly (`failOnWarning`), so a truncated or
    /// corrupt file (libjpeg's "premature end of data") fails, and gets a failure entry from `xdg`
    /// and exit 1 from `thumbnailer` (the desktop then records the failure), instead of a grey
    /// thumbnail that looks valid to every client. Colour-profile warnings never fail a file
    /// (`DecodeOptions.failsOn(warning:)`).
    /// With `limits`: `thumb`'s limits (the same option group on `xdg` and `thumbnailer`).
    public static func strictDecode(limits: ImageLimits = ImageLimits()) -> DecodeOptions {
        DecodeOptions(limits: limits, failOnWarning: true)
    }

    /// A thumbnailer for `sizes` into `cache`; relative paths are taken from `workingDirectory`
    /// (nil: this process's, read as bytes so a folder name that is not UTF-8 survives).
    public init(
        cache: ThumbnailCache, sizes: [ThumbnailSize], software: String,
        decode: DecodeOptions = DesktopThumbnailer.strictDecode(),
        workingDirectory: String? = nil
    ) {
        self.cache = cache
        self.sizes = sizes.isEmpty ? ThumbnailSize.defaults : Array(Set(sizes)).sorted { $0.pixels < $1.pixels }
        self.software = software
        self.decode = decode
        self.workingDirectory = workingDirectory ?? PathBytes.currentDirectory()
    }

    /// What happened to one source.
    public enum Outcome: Sendable, Hashable {
        /// These sizes were (re)written from one decode.
        case written([ThumbnailSize])
        /// Every requested size was already valid: nothing was decoded.
        case upToDate
        /// ThumbKit's failure entry for this very mtime exists: not decoded again.
        case knownFailure
        /// The source failed (one line, naming the file); `failureEntry` says whether a
        /// failure entry was written.
        case failed(String, failureEntry: Bool)
    }

    /// The source's facts that go into its thumbnails (a symlink is followed).
    struct Source {
        var uri: String
        var mtime: Int
        var size: Int
    }

    /// Makes the missing or stale thumbnails of `path`, a ``PathBytes`` string (the URI is
    /// `path` as given, made absolute, with symlinks not resolved, as GIO does; the data and
    /// mtime are the target's).
    public func process(_ path: String) -> Outcome {
        // A relative path is relative to `workingDirectory`, for the data as for the URI.
        let local = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        var st = stat()
        guard PathBytes.withCString(local, { stat($0, &st) }) == 0 else {
            return .failed("\(path): \(String(cString: strerror(errno)).lowercased())", failureEntry: false)
        }
        let source = Source(
            uri: FileURI.uri(forPath: path, relativeTo: workingDirectory), mtime: Int(st.st_mtim.tv_sec),
            size: Int(st.st_size))
        var stale: [ThumbnailSize] = []
        for size in sizes {
            let target = cache.path(forURI: source.uri, size: size)
            switch existing(at: target, source: source) {
            case .fresh: continue
            case .missingOrStale: stale.append(size)
            case .foreign:
                return .failed(
                    "\(path): \(target) exists and is not a thumbnail of this file; left alone", failureEntry: false)
            }
        }
        if stale.isEmpty { return .upToDate }
        let failPath = cache.failurePath(forURI: source.uri)
        if let entry = ThumbnailMetadata.read(at: failPath), entry.uri == source.uri, entry.mtime == source.mtime {
            return .knownFailure
        }
        do {
            let data = try FileIO.read(local, maxBytes: decode.limits.maxFileBytes)
            let rendered = try Self.render(
                data, path: path, boxes: stale.map(\.pixels), decode: decode, heavySlot: heavySlot)
            var encoded: [(String, [UInt8])] = []
            for (size, image) in zip(stale, rendered.images) {
                let target = cache.path(forURI: source.uri, size: size)
                let text = metadata(source, header: rendered.header).textChunks
                encoded.append((target, try Self.encodePNG(image, text: text, path: target)))
            }
            for (target, bytes) in encoded { try ThumbnailCache.writeFile(bytes, to: target) }
            return .written(stale)
        } catch let error as DecodeError {
            return .failed(error.description, failureEntry: writeFailureEntry(source, to: failPath))
        } catch let error as EncodeError {
            return .failed("\(path): \(error.description)", failureEntry: false)
        } catch {
            return .failed("\(path): \(error)", failureEntry: false)
        }
    }

    /// The thumbnail metadata of `source` decoded with `header`.
    func metadata(_ source: Source, header: ImageHeader) -> ThumbnailMetadata {
        Self.metadata(uri: source.uri, mtime: source.mtime, size: source.size, header: header, software: software)
    }

    /// The thumbnail metadata of the source at `uri` (its `stat` mtime and size) whose header is
    /// `header`: `Thumb::Mimetype` is its format's media type.
    public static func metadata(uri: String, mtime: Int, size: Int, header: ImageHeader, software: String)
        -> ThumbnailMetadata
    {
        ThumbnailMetadata(
            uri: uri, mtime: mtime, size: size, mimeType: header.format.mimeType, imageWidth: header.width,
            imageHeight: header.height, software: software)
    }

    /// The JPEG shrink-on-load margin of desktop thumbnails: 1, the smallest DCT scale whose
    /// image still covers the box, which is what gdk-pixbuf picks. `thumb` and `build` keep 2
    /// (twice the output's detail for the resize); a cache thumbnail is made once per file and
    /// shown small, and `thumbnailer -s 256` on a 12 MP JPEG took 30 % less time at 1/8.
    public static let shrinkOnLoadMargin: Double = 1

    /// Decodes `data` once and fits it inside each `boxes` square, never enlarged, upright by
    /// its EXIF orientation, in sRGB (`decode`'s colour options), decoding a JPEG at the
    /// smallest DCT scale that covers the largest box (`shrinkOnLoadMargin`), through the one
    /// `ThumbnailPipeline` (the PNG, with its text chunks, is `encodePNG`'s). A memory-heavy
    /// decode waits for `heavySlot` when one is given; the time limit starts after that wait.
    public static func render(
        _ data: [UInt8], path: String, boxes: [Int], decode: DecodeOptions
    ) throws(DecodeError) -> Thumbnailer.Rendered {
        try render(data, path: path, boxes: boxes, decode: decode, heavySlot: nil)
    }

    package static func render(
        _ data: [UInt8], path: String, boxes: [Int], decode: DecodeOptions, heavySlot: HeavyDecodeSlot?
    ) throws(DecodeError) -> Thumbnailer.Rendered {
        let pipeline = ThumbnailPipeline(
            variants: boxes.map {
                ThumbnailPipeline.Variant(
                    resize: ResizeOptions(width: $0, height: $0, mode: .fit, upscale: false),
                    encoding: EncodeOptions(format: .png))
            }, decode: decode, shrinkOnLoadMargin: shrinkOnLoadMargin)
        let source = try ImageSource(data, path: path)
        guard let heavySlot else { return try pipeline.render(source) }
        let heavy = pipeline.isHeavy(source)
        return try heavySlot.run(heavy: heavy) { () throws(DecodeError) in
            try pipeline.render(source, spareSlot: heavy ? nil : heavySlot)
        }
    }

    /// A thumbnail's PNG: 8-bit RGBA with `text`, written for speed (the Paeth filter and
    /// zlib's run-length strategy, see `ImageEncoders.encodePNGRGBA`). A cache file is written
    /// once and read small; level-6 matching took longer than decoding a JPEG at 1/8.
    package static func encodePNG(_ image: PixelBuffer, text: PNGTextChunks, path: String) throws(EncodeError)
        -> [UInt8]
    {
        try ImageEncoders.encodePNGRGBA(image, text: text, compression: .fast, path: path)
    }

    private enum Existing {
        case fresh
        case missingOrStale
        case foreign
    }

    /// Whether the file at `target` is a valid thumbnail of `source`, one that may be replaced
    /// (none, or a thumbnail of the same URI with another mtime), or something else.
    private func existing(at target: String, source: Source) -> Existing {
        var st = stat()
        guard lstat(target, &st) == 0 else { return .missingOrStale }
        guard (st.st_mode & S_IFMT) == S_IFREG, let found = ThumbnailMetadata.read(at: target),
            found.uri == source.uri
        else { return .foreign }
        // GIO also checks Thumb::Size when present.
        if found.mtime == source.mtime && (found.size == nil || found.size == source.size) { return .fresh }
        return .missingOrStale
    }

    /// Writes the standard's failure entry (a 1×1 transparent PNG with `Thumb::URI` and
    /// `Thumb::MTime`) under ThumbKit's own fail folder; false when that failed too.
    private func writeFailureEntry(_ source: Source, to path: String) -> Bool {
        var st = stat()
        if lstat(path, &st) == 0 {
            // Replace only an entry for this same URI (an older mtime), never another file.
            guard (st.st_mode & S_IFMT) == S_IFREG, ThumbnailMetadata.read(at: path)?.uri == source.uri else {
                return false
            }
        }
        let text = ThumbnailMetadata(uri: source.uri, mtime: source.mtime, software: software).textChunks
        guard let bytes = try? ImageEncoders.encodePNGRGBA(PixelBuffer(width: 1, height: 1), text: text) else {
            return false
        }
        return (try? ThumbnailCache.writeFile(bytes, to: path)) != nil
    }
}
