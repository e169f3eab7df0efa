// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Checks of the sizes a request would make, done before any pixel memory is allocated: a box
/// times a scale must not overflow, and every planned output (the resampled image and, for
/// `pad`, its canvas) must be within the same pixel and dimension limits as an input.
extension ThumbnailRequest {
    /// The box of each scale, in order; throws `.overLimit` when a box side times its scale
    /// overflows `Int`.
    public func variants(path: String) throws(DecodeError) -> [ResizeOptions] {
        var variants: [ResizeOptions] = []
        for scale in scales {
            guard let variant = resize.checkedScaled(by: scale) else {
                throw .overLimit(
                    path: path, reason: "the \(resize.width)x\(resize.height) box at @\(scale)x is too large to plan")
            }
            variants.append(variant)
        }
        return variants
    }
}

extension ResizeOptions {
    /// `scaled(by:)`, or nil when a side times `factor` overflows `Int`.
    public func checkedScaled(by factor: Int) -> ResizeOptions? {
        let (w, wOverflow) = width.multipliedReportingOverflow(by: factor)
        let (h, hOverflow) = height.multipliedReportingOverflow(by: factor)
        guard factor > 0, !wOverflow, !hOverflow else { return nil }
        return ResizeOptions(
            width: w, height: h, mode: mode, kernel: kernel, upscale: upscale, linearLight: linearLight,
            background: background, gravity: gravity)
    }
}

extension ImageLimits {
    /// Throws `.overLimit` when an output of `width` × `height` may not be made: the limits an
    /// input must meet bound what is allocated for an output too.
    /// Limits raised past what the machine holds (`--max-pixels 9223372036854775807`) still
    /// cannot make an allocation trap: the output's RGBA bytes plus its filter taps (at most 64
    /// bytes a column or row) must also fit in physical memory.
    public func checkOutput(width: Int, height: Int, path: String) throws(DecodeError) {
        do {
            try check(width: width, height: height, path: path)
        } catch {
            guard case .overLimit(_, let reason) = error else { throw error }
            throw .overLimit(path: path, reason: "output " + reason)
        }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        let (rgba, o2) = pixels.multipliedReportingOverflow(by: 4)
        let (taps, o3) = (width / 2 + height / 2).multipliedReportingOverflow(by: 128)
        let (bytes, o4) = rgba.addingReportingOverflow(taps)
        guard !o1, !o2, !o3, !o4, UInt64(bytes) <= Self.machineBytes else {
            throw .overLimit(path: path, reason: "output \(width)x\(height) needs more memory than this machine has")
        }
    }

    /// Physical memory, in bytes.
    static let machineBytes = ProcessInfo.processInfo.physicalMemory
}

extension Thumbnailer {
    /// Plans every variant for a `header`-sized source and checks each output against `limits`
    /// (throwing `.overLimit` for the first that is too large), before anything is decoded.
    static func checkOutputs(
        header: ImageHeader, variants: [ResizeOptions], orientation: ExifOrientation, limits: ImageLimits,
        path: String
    ) throws(DecodeError) {
        for variant in variants {
            let stored = ImageProcessors.Resize.storedOptions(variant, orientation: orientation)
            let geometry = CropGeometry.plan(sourceWidth: header.width, sourceHeight: header.height, options: stored)
            try limits.checkOutput(width: geometry.outputWidth, height: geometry.outputHeight, path: path)
            if variant.mode == .pad {
                // `finish` centres the output on at least the box.
                try limits.checkOutput(
                    width: max(variant.width, geometry.outputWidth), height: max(variant.height, geometry.outputHeight),
                    path: path)
            }
        }
    }
}
