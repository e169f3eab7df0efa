// SPDX-License-Identifier: Apache-2.0
extension ImageProcessors {
    /// Resizes an image to a box with a mode (fill, fit, pad, stretch) and a kernel.
    public struct Resize: Sendable, Hashable {
        /// The options; their `identifier` keys outputs.
        public let options: ResizeOptions

        public init(_ options: ResizeOptions) {
            self.options = options
        }

        /// Stable key: the options' identifier.
        public var identifier: String { options.identifier }

        /// Resizes `image` (already upright) with `threads` threads for its rows.
        public func process(_ image: PixelBuffer, threads: Int = 1) -> PixelBuffer {
            process(image, originalWidth: image.width, originalHeight: image.height, orientation: .up, threads: threads)
        }

        /// Resizes an image that may be stored rotated and may have been decoded reduced.
        ///
        /// - Parameters:
        ///   - image: pixels as stored, possibly decoded at a reduced size (shrink-on-load).
        ///   - originalWidth/originalHeight: the file's stored size; `image` is that size
        ///     multiplied by `image.width / originalWidth` (JPEG DCT scaling rounds up, so the
        ///     factor is taken as `loadScale`).
        ///   - loadScale: decoded ÷ original (n/8 for JPEG, 1 otherwise).
        ///   - orientation: applied to the small output, after the box is swapped for 5–8
        ///     (as libvips does), so geometry is planned in stored space.
        ///   - deadline: checked between chunks of rows; when it has passed by the time this
        ///     returns, the result is incomplete and must be discarded.
        public func process(
            _ image: PixelBuffer, originalWidth: Int, originalHeight: Int, loadScale: Double = 1,
            orientation: ExifOrientation, threads: Int = 1, deadline: Deadline = .never
        ) -> PixelBuffer {
            let plan = resamplePlan(
                sourceWidth: image.width, sourceHeight: image.height, originalWidth: originalWidth,
                originalHeight: originalHeight, loadScale: loadScale, orientation: orientation, threads: threads,
                deadline: deadline, pixels: image)
            return finish(plan.run(image), orientation: orientation)
        }

        /// The resampling step of `process` for a `sourceWidth` × `sourceHeight` image (the
        /// original decoded at `loadScale`), to run on a buffer or to feed rows as they are decoded.
        /// `pixels` (that image, as stored) places a `.smart` fill's window; without them (rows
        /// fed as decoded: `needsPixels` callers must not stream) a smart fill is centred.
        func resamplePlan(
            sourceWidth: Int, sourceHeight: Int, originalWidth: Int, originalHeight: Int, loadScale: Double,
            orientation: ExifOrientation, threads: Int, deadline: Deadline = .never, pixels: PixelBuffer? = nil
        ) -> Resampler.Plan {
            var stored = Self.storedOptions(options, orientation: orientation)
            if stored.effectiveGravity.isSmart, let pixels {
                stored = Self.resolvingSmart(
                    stored, originalWidth: originalWidth, originalHeight: originalHeight, pixels: pixels,
                    deadline: deadline)
            }
            let geometry = CropGeometry.plan(sourceWidth: originalWidth, sourceHeight: originalHeight, options: stored)
            return Resampler.plan(
                sourceWidth: sourceWidth, sourceHeight: sourceHeight, rect: geometry.sourceRect.scaled(by: loadScale),
                width: geometry.outputWidth, height: geometry.outputHeight,
                kernel: options.kernel, linearLight: options.linearLight, threads: threads, deadline: deadline)
        }

        /// The steps of `process` after resampling: orientation, then padding for `.pad`.
        package func finish(_ resampled: PixelBuffer, orientation: ExifOrientation) -> PixelBuffer {
            var out = resampled.applying(orientation)
            if options.mode == .pad {
                let canvasW = max(options.width, out.width)
                let canvasH = max(options.height, out.height)
                out = out.placed(
                    onCanvasWidth: canvasW, height: canvasH, background: options.background,
                    x: (canvasW - out.width) / 2, y: (canvasH - out.height) / 2)
            }
            return out
        }

        /// The smallest decoded ÷ original ratio that still leaves `margin` times the output's
        /// resolution on the tighter axis (for JPEG shrink-on-load); 1 means "decode in full".
        public func minimumLoadScale(
            originalWidth: Int, originalHeight: Int, orientation: ExifOrientation, margin: Double
        ) -> Double {
            let stored = Self.storedOptions(options, orientation: orientation)
            let geometry = CropGeometry.plan(sourceWidth: originalWidth, sourceHeight: originalHeight, options: stored)
            let need = geometry.requiredScale
            return min(1, margin * max(need.x, need.y))
        }

        /// True when the resize must see the decoded pixels before it can plan (a `.smart`
        /// fill), so its rows cannot be streamed from the decoder.
        public var needsPixels: Bool { options.effectiveGravity.isSmart }

        /// `options` with the box turned to stored orientation (width and height swapped for
        /// orientations 5–8) and the gravity with it; a pad box is planned as fit and padded
        /// after turning.
        static func storedOptions(_ options: ResizeOptions, orientation: ExifOrientation) -> ResizeOptions {
            let swap = orientation.swapsAxes
            return ResizeOptions(
                width: swap ? options.height : options.width,
                height: swap ? options.width : options.height,
                mode: options.mode == .pad ? .fit : options.mode,
                kernel: options.kernel, upscale: options.upscale,
                linearLight: options.linearLight, background: options.background,
                gravity: options.effectiveGravity.stored(for: orientation))
        }

        /// `stored` (a smart fill in stored space) with its gravity replaced by the point
        /// ``SmartCrop`` picks on `pixels` for the window a centred plan would have.
        static func resolvingSmart(
            _ stored: ResizeOptions, originalWidth: Int, originalHeight: Int, pixels: PixelBuffer,
            deadline: Deadline = .never
        ) -> ResizeOptions {
            let centred = CropGeometry.plan(sourceWidth: originalWidth, sourceHeight: originalHeight, options: stored)
            let anchor = SmartCrop.anchor(
                in: pixels, windowWidth: centred.sourceRect.width / Double(originalWidth),
                windowHeight: centred.sourceRect.height / Double(originalHeight), deadline: deadline)
            let point = Gravity(
                .focus(
                    xMillionths: Int((anchor.x * 1_000_000).rounded()),
                    yMillionths: Int((anchor.y * 1_000_000).rounded())))
            return ResizeOptions(
                width: stored.width, height: stored.height, mode: stored.mode, kernel: stored.kernel,
                upscale: stored.upscale, linearLight: stored.linearLight, background: stored.background, gravity: point)
        }
    }
}
