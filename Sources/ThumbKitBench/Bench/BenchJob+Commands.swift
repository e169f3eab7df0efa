// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

extension BenchJob {
    /// The command line of `tool` for this resize job on `set`, or nil when the tool does not
    /// run it (a catalog build, which runs on no set: see ``catalogTemplate(for:)``; `djpeg` on
    /// PNG; the size hint on PNG where it changes nothing).
    ///
    /// These are the command lines verified against each tool's documentation and output:
    /// every tool gets the same box, quality and output format, in its natural batch mode on
    /// all cores. For WebP every tool encodes with libwebp at ``quality`` and its own default
    /// effort (4 for ThumbKit, libvips and Pillow). `mogrify` and `gm mogrify` work on one core
    /// each, so the file list is split over `{jobs}` processes; `vipsthumbnail` threads itself;
    /// Pillow's script forks `{jobs}` workers. GraphicsMagick runs inside the set folder with bare names, because its
    /// `-output-directory` appends the input path.
    package func template(for tool: BenchTool, set: BenchImageSet) -> BenchCommandTemplate? {
        guard sets.contains(set), case .resize(let box) = kind else { return nil }
        let format = outputFormat(for: set)
        let ext = format.fileExtension
        let q = String(quality)
        // JPEG and WebP take the job's quality; JPEG also 4:2:0 for the magicks, and a white
        // background where a fill flattens. PNG (and WebP) keep alpha.
        let lossy = format != .png
        let magickQuality = format == .jpeg ? ["-quality", q] + Self.chroma420 : lossy ? ["-quality", q] : []
        switch tool {
        case .thumbkit:
            return BenchCommandTemplate(
                ["{thumbkit}", "thumb"] + box.thumbkitArguments + (lossy ? ["-q", q] : [])
                    + ["-j", "{jobs}", "-o", "{out}/%s.\(ext)", "{files}"])
        case .vipsthumbnail:
            var saveOptions = lossy ? ["Q=\(q)", "strip"] : ["strip"]
            if case .fill = box, format == .jpeg { saveOptions.append("background=255") }
            let crop = box.isFill ? ["--smartcrop", "centre"] : []
            return BenchCommandTemplate(
                ["vipsthumbnail", "--size", box.vipsSize] + crop
                    + ["-o", "{out}/%s.\(ext)[\(saveOptions.joined(separator: ","))]", "{files}"])
        case .imagemagick, .imagemagickHint:
            if tool == .imagemagickHint && set != .jpeg { return nil }
            let hint = tool == .imagemagickHint ? ["-define", "jpeg:size=\(box.hintSize)"] : []
            return BenchCommandTemplate(
                ["mogrify", "-path", "{out}"] + hint + box.magickOperations(imageMagick: true) + magickQuality
                    + ["-format", ext, "{files}"],
                distribution: .split)
        case .graphicsmagick:
            let hint = set == .jpeg ? ["-size", box.hintSize] : []
            return BenchCommandTemplate(
                ["gm", "mogrify", "-output-directory", "{out}"] + hint + box.magickOperations(imageMagick: false)
                    + magickQuality + ["-format", ext, "{names}"],
                distribution: .split, inSetFolder: true)
        case .pillow:
            let output: [String]
            switch format {
            case .png: output = ["--format", "png"]
            case .webp: output = ["--format", "webp", "--quality", q]
            default: output = ["--quality", q]
            }
            return BenchCommandTemplate(
                ["{python}", "{pillow}"] + box.pillowArguments + output
                    + ["--jobs", "{jobs}", "--out", "{out}", "{files}"])
        case .djpegFloor:
            guard set == .jpeg else { return nil }
            return BenchCommandTemplate(
                ["djpeg", "-scale", "{scale}/8", "-outfile", "/dev/null", "{file}"], distribution: .perFile)
        case .decodeFloor:
            return BenchCommandTemplate(["{thumbkit}", "bench", "decode", "--job", name, "-j", "{jobs}", "{files}"])
        }
    }

    /// 4:2:0 chroma for the magicks' JPEG outputs, as every other tool writes at these qualities:
    /// ImageMagick 6 otherwise copies the input's sampling (4:4:4 for 14 of the 40 corpus
    /// photos), which makes its files about 40 % larger and its scores not comparable.
    static let chroma420 = ["-sampling-factor", "2x2"]

    /// The processes of one run of `tool` over `set`, writing into `output`; nil when the tool
    /// does not run this job on that set.
    package func workload(
        for tool: BenchTool, set: BenchImageSet, corpus: BenchCorpus, output: String, parallel: Int,
        programs: BenchPrograms
    ) -> BenchWorkload? {
        let files = corpus.files(set)
        guard !files.isEmpty, let template = template(for: tool, set: set) else { return nil }
        return template.expand(
            files: files, output: output, parallel: parallel, programs: programs,
            scale: { scaleNumerator(for: $0) })
    }

    /// The command line of `tool` for this catalog build, or nil when the tool does not run it
    /// (every tool but ThumbKit, and every resize job).
    ///
    /// One `thumbkit build` of the run's own copy of the prepared demo catalog
    /// (`{out}/catalog.sqlite`, put there untimed by ``BenchDemoCatalog/copyDatabase(into:)``)
    /// into the empty `{out}/build`, on `{jobs}` threads, with `--json` so the run's log holds
    /// the build's summary (``BenchDemoCatalog/verify(log:)`` checks it was a full build).
    package func catalogTemplate(for tool: BenchTool) -> BenchCommandTemplate? {
        guard isCatalogBuild, tool == .thumbkit else { return nil }
        return BenchCommandTemplate([
            "{thumbkit}", "build", "--catalog", "{out}/\(BenchDemoCatalog.databaseName)", "--out",
            "{out}/\(BenchDemoCatalog.outputFolderName)", "-j", "{jobs}", "--json",
        ])
    }

    /// The processes of one run of this catalog build by `tool`, in the run folder `output`;
    /// nil when the tool does not run it.
    package func catalogWorkload(for tool: BenchTool, output: String, parallel: Int, programs: BenchPrograms)
        -> BenchWorkload?
    {
        catalogTemplate(for: tool)?.expand(output: output, parallel: parallel, programs: programs)
    }
}

extension BenchJob.Box {
    var isFill: Bool {
        if case .fill = self { return true }
        return false
    }

    /// `-s 88x88 --fit fill`, `-s 720x --fit fit`.
    var thumbkitArguments: [String] {
        switch self {
        case .fill(let w, let h): return ["-s", "\(w)x\(h)", "--fit", "fill"]
        case .fit(let w, let h): return ["-s", "\(w)x\(h)", "--fit", "fit"]
        case .fitWidth(let w): return ["-s", "\(w)x", "--fit", "fit"]
        }
    }

    /// vipsthumbnail's `--size`: `88x88`, or `720x` for a width alone.
    var vipsSize: String {
        switch self {
        case .fill(let w, let h), .fit(let w, let h): return "\(w)x\(h)"
        case .fitWidth(let w): return "\(w)x"
        }
    }

    /// The JPEG size hint: twice the box (`jpeg:size=` / `-size`), so DCT scaling keeps
    /// detail for the filter; a width alone is hinted as a square.
    var hintSize: String {
        switch self {
        case .fill(let w, let h), .fit(let w, let h): return "\(2 * w)x\(2 * h)"
        case .fitWidth(let w): return "\(2 * w)x\(2 * w)"
        }
    }

    /// The resize operations of `mogrify` (ImageMagick 6) or `gm mogrify`.
    func magickOperations(imageMagick: Bool) -> [String] {
        switch self {
        case .fill(let w, let h):
            let flatten = imageMagick ? ["-alpha", "remove"] : []
            return ["-thumbnail", "\(w)x\(h)^", "-gravity", "center", "-extent", "\(w)x\(h)", "-background", "white"]
                + flatten
        case .fit(let w, let h):
            return ["-thumbnail", "\(w)x\(h)"]
        case .fitWidth(let w):
            let strip = imageMagick ? ["-strip"] : ["+profile", "*"]
            return ["-filter", "Lanczos", "-resize", "\(w)x"] + strip
        }
    }

    /// `--size 88x88 --mode fill`, `--width 720 --mode fit`.
    var pillowArguments: [String] {
        switch self {
        case .fill(let w, let h): return ["--size", "\(w)x\(h)", "--mode", "fill"]
        case .fit(let w, let h): return ["--size", "\(w)x\(h)", "--mode", "fit"]
        case .fitWidth(let w): return ["--width", "\(w)", "--mode", "fit"]
        }
    }
}
