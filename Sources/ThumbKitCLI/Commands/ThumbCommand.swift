// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// `thumbkit thumb`: thumbnails of files and folders, in parallel, written atomically.
enum ThumbCommand: Command {
    static let spec = CommandSpec(
        name: "thumb", abstract: "Make thumbnails of \(ImageFormat.readableNames("and")) files.",
        discussion: """
            Each input is decoded once (JPEGs at the smallest DCT scale that keeps twice the \
            output's detail), turned upright by its EXIF orientation, resized into the box and \
            written through a temporary name. In TEMPLATE, %s is the input's name without its \
            extension, %d its sub-folder below the folder argument (empty at the top; with -r, \
            'thumbs/%d/%s.jpg' mirrors the tree), and the extension (jpg, jpeg, jpe, png, webp or \
            avif) picks the format; with --scales the @2x/@3x suffix goes before the extension. An input '-' \
            is read from stdin (named 'stdin'), and '-o -' writes the one output to stdout (needs \
            --format). No output may be any input of the batch, and no two inputs may share an \
            output; such a file fails and the batch goes on. An input that is the template's \
            output for another input (an earlier thumbnail beside its source) is left out and \
            counted. With -r, the template's output folder is not walked. A failing file \
            (unreadable, corrupt, over a limit such as --max-pixels or --timeout, or not \
            writable) gets one line on stderr and the batch \
            goes on; with --stop-on-error no new file starts after the first failure. Embedded \
            colour profiles are converted to sRGB.

            Examples:
              thumbkit thumb -s 88x88 -o 'thumbs/%s.jpg' photos/
              thumbkit thumb -s 44x44 --scales 1,2,3 -o 'icons/%s.png' bug.jpg
              thumbkit thumb -r -o 'mirror/%d/%s.jpg' photos/
              thumbkit thumb -s 300x200 --gravity smart -o 'crops/%s.jpg' photos/
              cat in.jpg | thumbkit thumb --format png -o - - > out.png
              thumbkit thumb -r --shard 2/8 -o 'thumbs/%d/%s.jpg' photos/
            """,
        positionals: [.variadic("input", help: "Image files or folders to read.")],
        options: options)

    /// The box side that stands for "any height" in a width-only size (`-s 720x`) and "any
    /// width" in a height-only one (`-s x88`), as vipsthumbnail does with its largest
    /// coordinate: longer than any image the limits allow, so the other side decides a fit.
    static let anyHeight = 10_000_000

    /// The target box from `--size`: `WxH`, `N` (an NxN square), `Wx` (W wide and any height,
    /// as vipsthumbnail's `--size 720x`) or `xH` (H high and any width); the last two are fits
    /// (see ``mode(_:)``), and another `--fit` given with them is a usage error.
    static func box(_ text: String, mode: ResizeMode) throws(UsageError) -> ParsedArguments.Size {
        let widthOnly = text.last == "x" || text.last == "X"
        guard isOneSided(text) else {
            guard let size = ParsedArguments.parseSize(text) else {
                throw UsageError.invalidValue(
                    option: "--size", value: text, reason: "expected WxH (such as 88x88) or N for an NxN square")
            }
            return size
        }
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

    /// True for `Wx` and `xH`: a box with one side.
    static func isOneSided(_ text: String) -> Bool {
        text.count > 1 && (text.last == "x" || text.last == "X" || text.first == "x" || text.first == "X")
    }

    /// `--fit`, whose default follows the box: a one-sided box (`-s 720x`, `-s x200`) means fit,
    /// as in vipsthumbnail, and any other box means fill.
    static func mode(_ arguments: ParsedArguments) throws(UsageError) -> ResizeMode {
        if !arguments.isPresent(fit), isOneSided(try arguments[size]) { return .fit }
        return try arguments[fit]
    }

    /// What the options ask for, once their rules between each other hold.
    struct Settings {
        let request: ThumbnailRequest
        let encoding: EncodeOptions
        let template: OutputTemplate
        let toStdout: Bool
    }

    /// The settings of a command line: the box against `--fit`, the scales and the limits,
    /// the template against `--format`, the encoder flags against the format.
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> Settings {
        let mode = try mode(arguments)
        let text = try arguments[size]
        let box = try box(text, mode: mode)
        let background = try arguments[Self.background]
        let scales = try arguments[Self.scales]
        let gravity = try arguments[Self.gravity]
        if arguments.isPresent(Self.gravity), mode != .fill {
            throw UsageError.validationFailed(
                "--gravity applies only to --fit fill (a \(mode.rawValue) keeps the whole image)")
        }
        let resize = ResizeOptions(
            width: box.width, height: box.height, mode: mode, kernel: try arguments[kernel],
            upscale: !(try arguments[noUpscale]), linearLight: try arguments[linear], background: background,
            gravity: gravity)
        let limits = try LimitOptions.limits(arguments)
        try checkBox(box, text: text, resize: resize, scales: scales, limits: limits)
        let decode = DecodeOptions(
            limits: limits, failOnWarning: try arguments[failOn] == .warning, autoRotate: !(try arguments[noRotate]),
            color: ColorOptions(
                intent: try arguments[intent], blackPointCompensation: try arguments[bpc],
                keepProfile: try arguments[keepProfile]))
        let request = ThumbnailRequest(
            resize: resize, scales: scales, decode: decode, shrinkOnLoadMargin: try arguments[shrinkMargin])
        let format = try arguments[EncodingOptions.format]
        let toStdout = try arguments[output] == "-"
        // The default name follows --format (tn_%s.png); a typed -o must agree with it.
        let pattern =
            arguments.isPresent(output) || format == nil ? try arguments[output] : "tn_%s." + format!.fileExtension
        let template = try outputTemplate(pattern, format: format, toStdout: toStdout)
        let encoding = try EncodingOptions.encodeOptions(arguments, format: template.format, background: background)
        return Settings(request: request, encoding: encoding, template: template, toStdout: toStdout)
    }

    /// The rules between options (see ``settings(_:)``), before any input is looked at.
    static func validate(_ arguments: ParsedArguments) throws(UsageError) { _ = try settings(arguments) }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let settings = try settings(arguments)
        let (request, encoding, template, toStdout) = (
            settings.request, settings.encoding, settings.template, settings.toStdout
        )
        let limits = request.decode.limits
        let jobs = try arguments[Self.jobs]

        var inputs = InputCollector(recursive: try arguments[recursive], excludedFolders: [template.outputRoot])
            .collect(arguments.arguments("input"))
        try checkBatch(
            inputs, template: template, toStdout: toStdout, json: try arguments[CommonOptions.json],
            scales: request.scales.count)
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
            stopOnError: try arguments[stopOnError])
        runner.preloaded["-"] = standardInput
        if toStdout { runner.outputSink = writeStandardOutput }
        if let bytes = try arguments[diskFullAfter] {
            runner.writeFaults = SimulatedDiskFull(afterBytes: bytes)
        }
        // The whole batch is planned in every shard, so inputs that meet share a shard.
        var plan = runner.plan(inputs.files, subfolders: inputs.subfolders)
        if let shard = try arguments[shard] { plan = plan.sharded(shard) }
        if !plan.leftOut.isEmpty {
            let count = counted(plan.leftOut.count, "earlier thumbnail")
            context.printError("notice: \(count) left out (this template's outputs for other inputs)")
        }
        let progress = context.progress
        let verbose = try arguments[Self.verbose]
        let report = runner.run(
            plan,
            progress: { done, total in progress.update("[\(done)/\(total)] thumbnails") },
            onItem: { item in
                for warning in item.warnings { context.printError("warning: \(warning)") }
                if verbose { for note in item.profileNotes { context.printError("note: \(note)") } }
                if let error = item.error { context.printError(error) }
            })
        progress.finish()
        if report.files < plan.entries.count {
            let notStarted = plan.entries.count - report.files
            context.printError("stopped after a failure: \(notStarted) of \(plan.entries.count) files not started")
        }
        let argumentFailures = inputs.failures.map {
            BatchItem(input: $0.path, outputs: [], error: $0.description, warnings: [], megapixels: 0)
        }
        let full = BatchReport(items: report.items + argumentFailures, wallSeconds: report.wallSeconds)
        if try arguments[CommonOptions.json] {
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
