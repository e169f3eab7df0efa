import Foundation

extension BenchJob {
    /// The command line of `tool` for this job on `set`, or nil when the tool does not run it
    /// (floors and peers of a catalog build, `djpeg` on PNG, the size hint on PNG where it
    /// changes nothing).
    ///
    /// These are the command lines verified against each tool's documentation and output:
    /// every tool gets the same box, quality and output format, in its natural batch mode on
    /// all cores. `mogrify` and `gm mogrify` work on one core each, so the file list is split
    /// over `{jobs}` processes; `vipsthumbnail` threads itself; Pillow's script forks `{jobs}`
    /// workers. GraphicsMagick runs inside the set folder with bare names, because its
    /// `-output-directory` appends the input path.
    public func template(for tool: BenchTool, set: BenchImageSet) -> BenchCommandTemplate? {
        guard sets.contains(set) else { return nil }
        guard case .resize(let box) = kind else {
            // The catalog build: ThumbKit only (hook for the integrator, see `icons`).
            guard tool == .thumbkit else { return nil }
            return BenchCommandTemplate([
                "{thumbkit}", "build", "--catalog", "{corpus}/catalog/thumbkit.sqlite", "--out", "{out}",
                "-j", "{jobs}",
            ])
        }
        let jpegOut = outputFormat(for: set) == .jpeg
        let ext = jpegOut ? "jpg" : "png"
        let q = String(quality)
        switch tool {
        case .thumbkit:
            return BenchCommandTemplate(
                ["{thumbkit}", "thumb"] + box.thumbkitArguments + (jpegOut ? ["-q", q] : [])
                    + ["-j", "{jobs}", "-o", "{out}/%s.\(ext)", "{files}"])
        case .vipsthumbnail:
            var saveOptions = jpegOut ? ["Q=\(q)", "strip"] : ["strip"]
            if case .fill = box { saveOptions.append("background=255") }
            let crop = box.isFill ? ["--smartcrop", "centre"] : []
            return BenchCommandTemplate(
                ["vipsthumbnail", "--size", box.vipsSize] + crop
                    + ["-o", "{out}/%s.\(ext)[\(saveOptions.joined(separator: ","))]", "{files}"])
        case .imagemagick, .imagemagickHint:
            if tool == .imagemagickHint && set != .jpeg { return nil }
            let hint = tool == .imagemagickHint ? ["-define", "jpeg:size=\(box.hintSize)"] : []
            return BenchCommandTemplate(
                ["mogrify", "-path", "{out}"] + hint + box.magickOperations(imageMagick: true)
                    + (jpegOut ? ["-quality", q] : []) + ["-format", ext, "{files}"],
                distribution: .split)
        case .graphicsmagick:
            let hint = set == .jpeg ? ["-size", box.hintSize] : []
            return BenchCommandTemplate(
                ["gm", "mogrify", "-output-directory", "{out}"] + hint + box.magickOperations(imageMagick: false)
                    + (jpegOut ? ["-quality", q] : []) + ["-format", ext, "{names}"],
                distribution: .split, inSetFolder: true)
        case .pillow:
            return BenchCommandTemplate(
                ["{python}", "{pillow}"] + box.pillowArguments + (jpegOut ? ["--quality", q] : ["--format", "png"])
                    + ["--jobs", "{jobs}", "--out", "{out}", "{files}"])
        case .djpegFloor:
            guard set == .jpeg else { return nil }
            return BenchCommandTemplate(
                ["djpeg", "-scale", "{scale}/8", "-outfile", "/dev/null", "{file}"], distribution: .perFile)
        case .decodeFloor:
            return BenchCommandTemplate(["{thumbkit}", "bench", "decode", "--job", name, "-j", "{jobs}", "{files}"])
        }
    }

    /// The processes of one run of `tool` over `set`, writing into `output`; nil when the tool
    /// does not run this job on that set.
    public func workload(
        for tool: BenchTool, set: BenchImageSet, corpus: BenchCorpus, output: String, parallel: Int,
        programs: BenchPrograms
    ) -> BenchWorkload? {
        let files = corpus.files(set)
        guard !files.isEmpty, let template = template(for: tool, set: set) else { return nil }
        let workload = template.expand(
            files: files, output: output, parallel: parallel, programs: programs,
            scale: { scaleNumerator(for: $0) })
        guard case .catalogBuild = kind else { return workload }
        let invocations = workload.invocations.map { invocation in
            BenchInvocation(
                invocation.arguments.map { $0.replacingOccurrences(of: "{corpus}", with: corpus.root) },
                workingDirectory: invocation.workingDirectory)
        }
        return BenchWorkload(invocations: invocations, lanes: workload.lanes)
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
