import Foundation
import ThumbKit

/// `thumbkit thumb`: thumbnails of files and folders, in parallel, written atomically.
enum ThumbCommand: Command {
    static let spec = CommandSpec(
        name: "thumb", abstract: "Make thumbnails of PNG and JPEG files.",
        discussion: """
            Each input is decoded once (JPEGs at the smallest DCT scale that keeps twice the \
            output's detail), turned upright by its EXIF orientation, resized into the box and \
            written through a temporary name. In TEMPLATE, %s is the input's name without its \
            extension, %d its sub-folder below the folder argument (empty at the top; with -r, \
            'thumbs/%d/%s.jpg' mirrors the tree), and the extension (jpg, jpeg, jpe or png) picks \
            the format; with --scales the @2x/@3x suffix goes before the extension. An input '-' \
            is read from stdin (named 'stdin'), and '-o -' writes the one output to stdout (needs \
            --format). No output may be any input of the batch, and no two inputs may share an \
            output; such a file fails and the batch goes on. With -r, the template's output \
            folder is not walked. A failing file (unreadable, corrupt, over a limit such as \
            --max-pixels or --timeout, or not writable) gets one line on stderr and the batch \
            goes on; with --stop-on-error no new file starts after the first failure. Embedded \
            colour profiles are converted to sRGB.

            Examples:
              thumbkit thumb -s 88x88 -o 'thumbs/%s.jpg' photos/
              thumbkit thumb -s 44x44 --scales 1,2,3 -o 'icons/%s.png' bug.jpg
              thumbkit thumb -r -o 'mirror/%d/%s.jpg' photos/
              cat in.jpg | thumbkit thumb --format png -o - - > out.png
              thumbkit thumb -r --shard 2/8 -o 'thumbs/%d/%s.jpg' photos/
            """,
        positionals: [.variadic("input", help: "Image files or folders to read.")],
        options: [
            .value(
                "size", short: "s", valueName: "WxH",
                help: "Target box in pixels (N means NxN; Wx or xH: any height or width, with --fit fit).",
                default: "128x128"),
            .choice("fit", of: ResizeMode.self, default: .fill, help: "How the source maps onto the box."),
            .value("scales", valueName: "list", help: "Scale factors to make, such as 1,2,3.", default: "1"),
            .value("output", short: "o", valueName: "template", help: "Output name template.", default: "tn_%s.jpg"),
            .choice(
                "format", valueName: "format", of: ImageFormat.self,
                help: "Output format (default: from the template's extension)."),
            .value(
                "quality", short: "q", valueName: "n", help: "JPEG, WebP or AVIF quality, 1 to 100.",
                defaultHelp: "85 JPEG, 80 WebP, 50 AVIF"),
            .flag("lossless", help: "Write lossless WebP (icons, flat artwork)."),
            .value(
                "avif-speed", valueName: "n", help: "AVIF encoder speed, 0 (smallest) to 9 (fastest).",
                default: String(EncodeOptions.defaultAVIFSpeed)),
            .choice(
                "subsampling", valueName: "ratio", of: EncodeOptions.Subsampling.self, default: .yuv420,
                help: "JPEG chroma subsampling."),
            .flag("progressive", help: "Write progressive JPEGs."),
            .value("png-level", valueName: "n", help: "PNG compression level, 0 to 9.", default: "6"),
            .value(
                "background", valueName: "color",
                help: "Pad colour and JPEG flattening colour (#rrggbb, #rrggbbaa or a CSS colour name).",
                default: "white"),
            .choice(
                "kernel", valueName: "name", of: ResampleKernel.self, default: .lanczos3, help: "Resampling filter."),
            .flag("linear", help: "Resample in linear light."),
            .choice(
                "intent", valueName: "name", of: RenderingIntent.self, default: .relative,
                help: "Rendering intent of the conversion to sRGB."),
            .flag("bpc", help: "Use black-point compensation in the conversion to sRGB."),
            .flag("keep-profile", help: "Embed an RGB source's ICC profile instead of converting to sRGB."),
            .flag("no-rotate", help: "Ignore the EXIF orientation."),
            .flag("no-upscale", help: "Never make an image larger than its source."),
            .value(
                "jobs", short: "j", valueName: "n", help: "Images processed in parallel.",
                defaultHelp: "active processors"),
            .flag("recursive", short: "r", help: "Walk sub-folders of folder arguments."),
            .value(
                "shard", valueName: "K/N",
                help: "Process only share K (0-based) of N of the inputs, split by a stable hash of their paths."),
        ] + LimitOptions.all + [
            .flag("stop-on-error", help: "Start no new file after the first failure."),
            .choice(
                "fail-on", valueName: "level", of: FailOn.self, default: .error,
                help: "Treat codec warnings as failures with 'warning'."),
            .value(
                "shrink-margin", valueName: "x",
                help: "JPEG shrink-on-load keeps this many decoded pixels per output pixel.", default: "2"),
            .json,
            // Hidden (see OptionSpec.isHidden): a test seam of the real binary, not for users.
            // The outputs' writes fail with ENOSPC once this many bytes have been written, as on
            // a full disk (SimulatedDiskFull); FaultFlagsTests and scripts/fault-test use it when
            // they cannot mount a small tmpfs.
            .value(
                diskFullAfter, valueName: "bytes", help: "Test seam: simulate a disk that is full after BYTES bytes."),
        ])

    /// The `--shard` value: `K/N` with 0 ≤ K < N (`BatchShard`).
    static func parseShard(_ text: String) throws(UsageError) -> BatchShard {
        guard let shard = BatchShard(parsing: text) else {
            throw UsageError.validationFailed(
                "invalid --shard '\(text)': expected K/N with 0 <= K < N, such as 0/4 (K counts from 0)")
        }
        return shard
    }

    /// The hidden `--_disk-full-after BYTES`.
    static let diskFullAfter = "_disk-full-after"

    /// sharp's `failOn`, reduced to the two levels libjpeg and libpng distinguish.
    enum FailOn: String, CaseIterable {
        case error
        case warning
    }

    /// The box side that stands for "any height" in a width-only size (`-s 720x`) and "any
    /// width" in a height-only one (`-s x88`), as vipsthumbnail does with its largest
    /// coordinate: longer than any image the limits allow, so the other side decides a fit.
    static let anyHeight = 10_000_000

    /// The target box from `--size`: `WxH`, `N` (an NxN square), `Wx` (W wide and any height,
    /// as vipsthumbnail's `--size 720x`) or `xH` (H high and any width); the last two only make
    /// sense with `--fit fit`.
    static func box(_ arguments: ParsedArguments, mode: ResizeMode) throws(UsageError) -> ParsedArguments.Size {
        let text = arguments.value("size")!
        let widthOnly = text.last == "x" || text.last == "X"
        let heightOnly = text.first == "x" || text.first == "X"
        guard text.count > 1, widthOnly || heightOnly else { return try arguments.size("size")! }
        let digits = widthOnly ? text.dropLast() : text.dropFirst()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let side = Int(digits), side > 0 else {
            throw UsageError.invalidValue(
                option: "--size", value: text, reason: "expected WxH, N, Wx or xH (such as 720x or x88)")
        }
        guard mode == .fit else {
            let form = widthOnly ? "a width-only" : "a height-only"
            throw UsageError.invalidValue(option: "--size", value: text, reason: "\(form) size needs --fit fit")
        }
        return widthOnly
            ? ParsedArguments.Size(width: side, height: anyHeight)
            : ParsedArguments.Size(width: anyHeight, height: side)
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let size = try box(arguments, mode: try arguments.choice("fit", as: ResizeMode.self)!)
        guard let background = CSSColors.parse(arguments.value("background")!) else {
            throw UsageError.invalidValue(
                option: "--background", value: arguments.value("background")!,
                reason: "expected #rrggbb, #rrggbbaa or a CSS colour name")
        }
        let scales = try arguments.list("scales", as: Int.self)
        guard !scales.isEmpty, scales.allSatisfy({ (1...10).contains($0) }) else {
            throw UsageError.invalidValue(
                option: "--scales", value: arguments.value("scales")!, reason: "scale factors must be 1 to 10")
        }
        let resize = ResizeOptions(
            width: size.width, height: size.height, mode: try arguments.choice("fit", as: ResizeMode.self)!,
            kernel: try arguments.choice("kernel", as: ResampleKernel.self)!, upscale: !arguments.flag("no-upscale"),
            linearLight: arguments.flag("linear"), background: background)
        let limits = try LimitOptions.limits(arguments)
        try checkBox(size, text: arguments.value("size")!, resize: resize, scales: scales, limits: limits)
        let decode = DecodeOptions(
            limits: limits, failOnWarning: try arguments.choice("fail-on", as: FailOn.self) == .warning,
            autoRotate: !arguments.flag("no-rotate"),
            color: ColorOptions(
                intent: try arguments.choice("intent", as: RenderingIntent.self)!,
                blackPointCompensation: arguments.flag("bpc"), keepProfile: arguments.flag("keep-profile")))
        let request = ThumbnailRequest(
            resize: resize, scales: scales, decode: decode,
            shrinkOnLoadMargin: try arguments.double("shrink-margin", in: 1...8)!)
        let format = try arguments.choice("format", as: ImageFormat.self)
        let toStdout = arguments.value("output") == "-"
        // The default name follows --format (tn_%s.png); a typed -o must agree with it.
        let pattern =
            arguments.isPresent("output") || format == nil
            ? arguments.value("output")! : "tn_%s." + format!.fileExtension
        let template = try outputTemplate(pattern, format: format, toStdout: toStdout)
        try checkModernFormatFlags(arguments, format: template.format)
        let encoding = EncodeOptions(
            format: template.format, quality: try arguments.int("quality", in: 1...100),
            subsampling: try arguments.choice("subsampling", as: EncodeOptions.Subsampling.self)!,
            progressive: arguments.flag("progressive"), pngCompressionLevel: try arguments.int("png-level", in: 0...9)!,
            background: background, lossless: arguments.flag("lossless"),
            avifSpeed: try arguments.int("avif-speed", in: 0...9)!)
        let jobs = try arguments.int("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount

        let shard = try arguments.value("shard").map(parseShard)
        var inputs = InputCollector(
            recursive: arguments.flag("recursive"), excludedFolders: [template.outputRoot], shard: shard
        ).collect(arguments.arguments("input"))
        try checkBatch(
            inputs, template: template, toStdout: toStdout, json: arguments.flag("json"), scales: scales.count)
        var standardInput: [UInt8]?
        if let index = inputs.files.firstIndex(of: "-") {
            do {
                standardInput = try readStandardInput(maxBytes: limits.maxFileBytes)
            } catch {
                inputs.files.remove(at: index)
                inputs.subfolders.remove(at: index)
                inputs.failures.append(error)
            }
        }
        for notice in inputs.notices { context.printError("notice: \(notice)") }
        for failure in inputs.failures { context.report(failure) }

        var runner = BatchRunner(
            request: request, encoding: encoding, template: template, jobs: jobs,
            stopOnError: arguments.flag("stop-on-error"))
        runner.preloaded["-"] = standardInput
        if toStdout { runner.outputSink = writeStandardOutput }
        if let bytes = try arguments.int(Self.diskFullAfter, in: 0...Int.max) {
            runner.writeFaults = SimulatedDiskFull(afterBytes: bytes)
        }
        let progress = context.progress
        let report = runner.run(
            inputs.files, subfolders: inputs.subfolders,
            progress: { done, total in progress.update("[\(done)/\(total)] thumbnails") },
            onItem: { item in
                for warning in item.warnings { context.printError("warning: \(warning)") }
                if let error = item.error { context.printError(error) }
            })
        progress.finish()
        if report.files < inputs.files.count {
            let notStarted = inputs.files.count - report.files
            context.printError("stopped after a failure: \(notStarted) of \(inputs.files.count) files not started")
        }
        let argumentFailures = inputs.failures.map {
            BatchItem(input: $0.path, outputs: [], error: $0.description, warnings: [], megapixels: 0)
        }
        let full = BatchReport(items: report.items + argumentFailures, wallSeconds: report.wallSeconds)
        if arguments.flag("json") {
            try context.writeJSON(displayed(full))
        } else if toStdout {
            context.printError(summary(full))  // stdout holds the image
        } else {
            context.print(summary(full))
        }
        return full.failed == 0 ? .success : .failure
    }

    /// `12 files: 11 succeeded, 1 failed; 48.2 MP in 1.31 s (9.2 images/s)`; `1 file`,
    /// `1 warning`, and no rate when nothing succeeded.
    static func summary(_ report: BatchReport) -> String {
        let mp = String(format: "%.1f", report.inputMegapixels)
        let secs = String(format: "%.2f", report.wallSeconds)
        let rate = String(format: "%.1f", report.imagesPerSecond)
        var line = "\(counted(report.files, "file")): \(report.succeeded) succeeded, \(report.failed) failed"
        if report.warnings > 0 { line += ", \(counted(report.warnings, "warning"))" }
        line += "; \(mp) MP in \(secs) s"
        return report.succeeded > 0 ? line + " (\(rate) images/s)" : line
    }

    /// `1 file`, `2 files`.
    static func counted(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
