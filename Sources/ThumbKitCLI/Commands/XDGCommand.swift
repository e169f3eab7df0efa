// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitDesktop

/// `thumbkit xdg`: fills the freedesktop.org thumbnail cache (the one GNOME, Xfce and KDE read)
/// for files and folders, one decode per file for every size.
enum XDGCommand: Command {
    static let spec = CommandSpec(
        name: "xdg", abstract: "Fill the desktop's thumbnail cache (freedesktop.org standard).",
        discussion: """
            Writes $XDG_CACHE_HOME/thumbnails/<size>/<md5 of the file:// URI>.png (default \
            ~/.cache/thumbnails) for each input: fitted inside the size's box, never enlarged, \
            upright by its EXIF orientation, in sRGB, as 8-bit RGBA PNGs carrying Thumb::URI, \
            Thumb::MTime, Thumb::Size, Thumb::Mimetype, Thumb::Image::Width/Height and Software. \
            Files whose thumbnails are all still valid are not decoded. A file that cannot be \
            thumbnailed gets one line on stderr and a failure entry under \
            fail/thumbkit-<version>/, and is skipped until its mtime changes. Nothing is written \
            beside the sources; symlinks are read through, but the URI is the path as given. \
            --prune removes the entries, in the size folders and ThumbKit's own fail folder, \
            whose source file no longer exists or has changed, and lists them.

            Sizes: normal (128), large (256), x-large (512), xx-large (1024).

            Examples:
              thumbkit xdg -r ~/Pictures
              thumbkit xdg --size large --size xx-large photo.jpg
              thumbkit xdg --prune
            """,
        positionals: [.variadic("path", help: "Image files or folders.", required: false)],
        options: [size, recursive, jobs, prune, CommonOptions.json] + LimitOptions.all)

    /// `--size NAME`, repeatable; the cases of `ThumbnailSize`.
    static let size = OptionKey<[String]>.repeated(
        "size", valueName: "name", help: "A size to make (repeatable; default: normal and large).",
        allowedValues: ThumbnailSize.allCases.map(\.rawValue)
    ).map { names in names.compactMap(ThumbnailSize.init(rawValue:)) }
    static let recursive: OptionKey<Bool> = .flag(
        "recursive", short: "r", help: "Walk sub-folders of folder arguments.")
    static let jobs = CommonOptions.jobs("Images processed in parallel.")
    static let prune: OptionKey<Bool> = .flag(
        "prune", help: "Remove entries whose source is gone or changed (before any PATH).")

    /// The cache this process uses: from `$XDG_CACHE_HOME` and `$HOME` in `environment`.
    static func cache(_ environment: [String: String]) -> ThumbnailCache {
        let home = environment["HOME"] ?? NSHomeDirectory()
        return ThumbnailCache(
            root: ThumbnailCache.root(xdgCacheHome: environment["XDG_CACHE_HOME"], home: home),
            version: VersionInfo.version)
    }

    /// What `--json` prints.
    struct Result: Encodable {
        var cache: String
        var pruned: [CachePruner.Removal]?
        var report: DesktopBatch.Report?
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let paths = arguments.arguments("path")
        let prune = try arguments[Self.prune]
        if paths.isEmpty && !prune { throw UsageError.missingArgument("path") }
        let sizes = try arguments[size]
        let jobs = try arguments[Self.jobs]
        let cache = cache(context.environment)
        let json = try arguments[CommonOptions.json]
        var result = Result(cache: cache.root)
        var failed = false

        if prune {
            var failures: [String] = []
            let removed = CachePruner(cache: cache).prune(failures: &failures)
            for failure in failures { context.printError(failure) }
            failed = !failures.isEmpty
            result.pruned = removed
            if !json {
                for removal in removed {
                    context.print(Terminal.oneLine("removed \(removal.path) (\(removal.reason): \(removal.uri))"))
                }
                context.print("pruned \(removed.count) entries from \(cache.root)")
            }
        }

        if !paths.isEmpty {
            let inputs = InputCollector(recursive: try arguments[recursive]).collect(paths)
            for failure in inputs.failures { context.report(failure) }
            let thumbnailer = DesktopThumbnailer(
                cache: cache, sizes: sizes, software: VersionInfo.versionLine,
                decode: DesktopThumbnailer.strictDecode(limits: try LimitOptions.limits(arguments)))
            let progress = context.progress
            let done = Locked(0)
            let total = inputs.files.count
            let report = DesktopBatch(thumbnailer: thumbnailer, jobs: jobs).run(inputs.files) { item in
                if let error = item.error { context.printError(error) }
                let count = done.withLock { n -> Int in
                    n += 1
                    return n
                }
                progress.update("[\(count)/\(total)] desktop thumbnails")
            }
            progress.finish()
            failed = failed || report.failed > 0 || !inputs.failures.isEmpty
            result.report = displayed(report)
            if !json { context.print(summary(report, sizes: thumbnailer.sizes)) }
        }
        if json { try context.writeJSON(result) }
        return failed ? .failure : .success
    }

    /// The report with raw name bytes shown as `\xE9`, as `thumb --json` shows them: JSON text
    /// must be valid UTF-8, and the private-use stand-ins of ``PathBytes`` mean nothing there.
    static func displayed(_ report: DesktopBatch.Report) -> DesktopBatch.Report {
        var copy = report
        copy.items = report.items.map { item in
            var shown = item
            shown.input = PathBytes.display(item.input)
            shown.error = item.error.map(PathBytes.display)
            return shown
        }
        return copy
    }

    /// `210 files: 210 decoded, 420 thumbnails written (normal, large), 0 up to date, 0 failed; 8.1 s`,
    /// or, when nothing was stale, `… nothing decoded, 210 up to date …`.
    static func summary(_ report: DesktopBatch.Report, sizes: [ThumbnailSize]) -> String {
        let names = sizes.map(\.rawValue).joined(separator: ", ")
        let decoded = report.decoded == 0 ? "nothing decoded" : "\(report.decoded) decoded"
        var line = "\(report.items.count) files: \(decoded), \(report.thumbnailsWritten) thumbnails written (\(names))"
        line += ", \(report.upToDate) up to date"
        if report.knownFailures > 0 { line += ", \(report.knownFailures) known failures skipped" }
        line += ", \(report.failed) failed; " + String(format: "%.2f s", report.wallSeconds)
        return line
    }
}
