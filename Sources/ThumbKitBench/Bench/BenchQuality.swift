// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// Scores every tool's outputs against ``ReferenceResampler``: SSIM and PSNR
/// (``ImageComparison``) of each output file against the reference rendering of the same
/// picture, and, when asked, against a second reference made in linear light.
///
/// The reference is cut with the tool's own crop geometry (``BenchTool/cropGeometry``): the
/// exact fractional crop for ThumbKit and Pillow, a whole-pixel crop for vips, ImageMagick and
/// GraphicsMagick. Scored against ThumbKit's exact crop, a tool that crops half a pixel off
/// centre lost about 0.2 of SSIM on detailed pictures for a shift, not for its filtering. How
/// far each tool's crop lies from the exact centre is kept apart, in
/// ``Score/centringOffsets``.
///
/// An output is compared only when its size equals the reference's: a tool that rounds a fit
/// size the other way is counted in ``Score/sizeMismatches`` rather than resized (resizing
/// would score the second resize, not the tool).
package enum BenchQuality {
    /// One job on one set: the box the reference renders and where each tool's outputs are.
    package struct Target: Sendable, Hashable {
        /// Names the work (`bug-thumb/jpeg`).
        package let key: String
        /// The box every tool was asked for.
        package let resize: ResizeOptions
        /// The outputs' file extension (`jpg`, `png`): tool folder/`<stem>.<ext>`.
        package let outputExtension: String
        /// Tool name → the folder its last run wrote.
        package let outputFolders: [String: String]

        package init(key: String, resize: ResizeOptions, outputExtension: String, outputFolders: [String: String]) {
            self.key = key
            self.resize = resize
            self.outputExtension = outputExtension
            self.outputFolders = outputFolders
        }
    }

    /// The scores of one tool on one target, one value per compared output.
    package struct Score: Sendable, Hashable {
        /// SSIM of each compared output against the sRGB-domain reference.
        package var ssim: [Double] = []
        /// PSNR of each compared output (dB; +infinity when identical).
        package var psnr: [Double] = []
        /// SSIM against the linear-light reference (empty unless asked).
        package var ssimLinear: [Double] = []
        /// PSNR against the linear-light reference (empty unless asked).
        package var psnrLinear: [Double] = []
        /// Outputs whose size differs from the reference's.
        package var sizeMismatches = 0
        /// Inputs without an output file.
        package var missing = 0
        /// Outputs that could not be decoded or are too small for SSIM (under 7×7), as
        /// `<path>: <reason>`.
        package var unreadable: [String] = []
        /// Per compared output: how far the tool's crop centre lies from ThumbKit's exact one, in
        /// output pixels (``BenchCropGeometry/centringOffset(sourceWidth:sourceHeight:options:)``).
        package var centringOffsets: [Double] = []

        package init() {}

        mutating func merge(_ other: Score) {
            ssim += other.ssim
            psnr += other.psnr
            ssimLinear += other.ssimLinear
            psnrLinear += other.psnrLinear
            sizeMismatches += other.sizeMismatches
            missing += other.missing
            unreadable += other.unreadable
            centringOffsets += other.centringOffsets
        }
    }

    /// Scores `targets` (all on the set `files` come from) with `threads` pictures at a time.
    ///
    /// Each picture is decoded once at full resolution (EXIF orientation applied, no
    /// shrink-on-load) and serves every target. A picture that cannot be decoded makes every
    /// tool's output of it count as unreadable.
    ///
    /// - Returns: target key → tool → score.
    package static func score(
        files: [BenchCorpus.File], targets: [Target], linearLight: Bool, threads: Int,
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) -> [String: [String: Score]] {
        guard !files.isEmpty, !targets.isEmpty else { return [:] }
        let perFile = Locked([[String: [String: Score]]](repeating: [:], count: files.count))
        let done = Atomic<Int>(0)
        WorkQueue.forEach(files.count, workers: threads) { index in
            let scores = score(file: files[index], targets: targets, linearLight: linearLight)
            perFile.withLock { $0[index] = scores }
            progress(done.add(1, ordering: .relaxed).newValue, files.count)
        }
        var merged: [String: [String: Score]] = [:]
        for scores in perFile.withLock({ $0 }) {
            for (key, tools) in scores {
                for (tool, score) in tools { merged[key, default: [:]][tool, default: Score()].merge(score) }
            }
        }
        return merged
    }

    /// The scores of every tool's output of one picture.
    static func score(file: BenchCorpus.File, targets: [Target], linearLight: Bool) -> [String: [String: Score]] {
        var result: [String: [String: Score]] = [:]
        let upright: PixelBuffer
        do {
            let decoded = try ImageDecoders.decodeFile(atPath: file.path, minimumScale: 1)
            upright = decoded.buffer.applying(decoded.header.orientation)
        } catch {
            for target in targets {
                for tool in target.outputFolders.keys {
                    var score = Score()
                    score.unreadable.append("\(error)")
                    result[target.key, default: [:]][tool] = score
                }
            }
            return result
        }
        for target in targets {
            var references: [BenchCropGeometry: (PixelBuffer, PixelBuffer?)] = [:]
            for (tool, folder) in target.outputFolders {
                let geometry = BenchTool(rawValue: tool)?.cropGeometry ?? .fractional
                if references[geometry] == nil {
                    let plan = geometry.plan(
                        sourceWidth: upright.width, sourceHeight: upright.height, options: target.resize)
                    references[geometry] = (
                        ReferenceResampler.render(upright, geometry: plan),
                        linearLight ? ReferenceResampler.render(upright, geometry: plan, linearLight: true) : nil
                    )
                }
                let (reference, linear) = references[geometry]!
                let path = (folder as NSString).appendingPathComponent("\(file.stem).\(target.outputExtension)")
                var score = score(output: path, reference: reference, linear: linear)
                if !score.ssim.isEmpty {
                    score.centringOffsets.append(
                        geometry.centringOffset(
                            sourceWidth: upright.width, sourceHeight: upright.height, options: target.resize))
                }
                result[target.key, default: [:]][tool] = score
            }
        }
        return result
    }

    /// The score of one output file against its reference(s).
    static func score(output path: String, reference: PixelBuffer, linear: PixelBuffer?) -> Score {
        var score = Score()
        guard FileManager.default.fileExists(atPath: path) else {
            score.missing = 1
            return score
        }
        do {
            let decoded = try ImageDecoders.decodeFile(atPath: path)
            let image = decoded.buffer.applying(decoded.header.orientation)
            guard image.width == reference.width, image.height == reference.height else {
                score.sizeMismatches = 1
                return score
            }
            let result = try ImageComparison.compare(reference, image)
            score.ssim.append(result.ssim)
            score.psnr.append(result.psnr)
            if let linear {
                let linearResult = try ImageComparison.compare(linear, image)
                score.ssimLinear.append(linearResult.ssim)
                score.psnrLinear.append(linearResult.psnr)
            }
        } catch let error as DecodeError {
            score.unreadable.append(error.description)
        } catch {
            score.unreadable.append("\(path): \(error)")
        }
        return score
    }
}
