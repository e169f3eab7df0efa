// SPDX-License-Identifier: Apache-2.0
import CLCMS2

/// ThumbKit's one way into Little CMS 2: a private context whose error handler records lcms's
/// messages instead of printing them, the pixel formats ThumbKit uses, and the few profile
/// builders it needs.
///
/// lcms reports a failure (a corrupt profile, a missing tag) through the context's error
/// handler and then returns NULL. Every call that can fail runs inside `withErrors`, which holds
/// one lock for the call, so the message read afterwards is that call's own.
final class LittleCMS: Sendable {
    /// The process-wide instance.
    static let shared = LittleCMS()

    /// The lcms context. `cmsContext` is an opaque pointer, not Sendable: it is only handed to
    /// lcms, which may use one context from several threads (its state is set up here, once).
    private nonisolated(unsafe) let context: cmsContext
    /// Serialises `withErrors` calls.
    private let calls = Locked(())

    private init() {
        // The instance lives for the whole process, so an unretained pointer stays valid.
        let box = Unmanaged.passUnretained(MessageSink.shared).toOpaque()
        context = cmsCreateContext(nil, box)!
        cmsSetLogErrorHandlerTHR(context) { ctx, _, text in
            guard let raw = cmsGetContextUserData(ctx) else { return }
            let sink = Unmanaged<MessageSink>.fromOpaque(raw).takeUnretainedValue()
            sink.record(text.map { String(cString: $0) } ?? "unknown Little CMS error")
        }
    }

    /// Runs `body` with the context; returns its result and the first message lcms reported
    /// during it (nil when none). Calls are serialised; `body` must not call `withErrors`.
    func withErrors<T>(_ body: (cmsContext) -> T) -> (T, String?) {
        calls.withLock { _ in
            MessageSink.shared.reset()
            let result = body(context)
            return (result, MessageSink.shared.first())
        }
    }

    // MARK: - Pixel formats (lcms2.h builds them with function-like macros Swift cannot import)

    /// `COLORSPACE_SH(space) | FLAVOR_SH(flavor) | EXTRA_SH(extra) | CHANNELS_SH(channels) | BYTES_SH(1)`.
    static func format8(space: Int32, channels: UInt32, extra: UInt32, inverted: Bool = false) -> UInt32 {
        UInt32(space) << 16 | (inverted ? 1 : 0) << 13 | extra << 7 | channels << 3 | 1
    }

    /// RGBA, 8 bits: TYPE_RGBA_8 (the alpha byte is neither read nor written).
    static let rgba8 = format8(space: PT_RGB, channels: 3, extra: 1)
    /// Gray held in the R byte of an RGBA pixel (G, B and A are skipped).
    static let grayInRGBA8 = format8(space: PT_GRAY, channels: 1, extra: 3)
    /// CMYK, 8 bits: TYPE_CMYK_8.
    static let cmyk8 = format8(space: PT_CMYK, channels: 4, extra: 0)
    /// CMYK stored as 255 − ink (Adobe's convention): TYPE_CMYK_8_REV.
    static let cmyk8Inverted = format8(space: PT_CMYK, channels: 4, extra: 0, inverted: true)

    // MARK: - Profiles

    /// A tone curve, as lcms builds it: linear light as a function of the encoded value, both 0…1.
    enum ToneCurve: Hashable, Sendable {
        /// `linear = encoded^exponent` (cmsBuildGamma).
        case power(Double)
        /// One of lcms's parametric curves (cmsBuildParametricToneCurve); type 4 is the
        /// IEC 61966-2-1 form `linear = (a·e + b)^g` for `e ≥ d`, else `c·e`, parameters
        /// `[g, a, b, c, d]`.
        case parametric(type: Int32, parameters: [Double])
        /// Linear light at evenly spaced encoded values from 0 to 1 (cmsBuildTabulatedToneCurveFloat).
        case table([Float])

        /// The IEC 61966-2-1 (sRGB) curve.
        static let srgb = ToneCurve.parametric(
            type: 4, parameters: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])

        /// The lcms curve (nil when lcms refuses the parameters); the caller frees it.
        fileprivate func build(_ ctx: cmsContext) -> OpaquePointer? {
            switch self {
            case .power(let exponent): return cmsBuildGamma(ctx, exponent)
            case .parametric(let type, let parameters): return cmsBuildParametricToneCurve(ctx, type, parameters)
            case .table(let values): return cmsBuildTabulatedToneCurveFloat(ctx, UInt32(values.count), values)
            }
        }
    }

    /// An RGB matrix/TRC profile from CIE xy chromaticities and a pure power-law tone curve
    /// (`encoded = linear^(1/exponent)`), serialised to ICC bytes; nil if lcms refuses the
    /// primaries (they must form a proper triangle around the white point).
    func rgbProfile(
        white: (x: Double, y: Double), red: (x: Double, y: Double), green: (x: Double, y: Double),
        blue: (x: Double, y: Double), exponent: Double
    ) -> [UInt8]? {
        rgbProfile(white: white, red: red, green: green, blue: blue, curve: .power(exponent))
    }

    /// An RGB matrix/TRC profile from CIE xy chromaticities and one tone curve for R, G and B,
    /// serialised to ICC bytes; nil if lcms refuses the primaries or the curve.
    func rgbProfile(
        white: (x: Double, y: Double), red: (x: Double, y: Double), green: (x: Double, y: Double),
        blue: (x: Double, y: Double), curve: ToneCurve
    ) -> [UInt8]? {
        let (bytes, _) = withErrors { ctx -> [UInt8]? in
            var wp = cmsCIExyY(x: white.x, y: white.y, Y: 1)
            var primaries = cmsCIExyYTRIPLE(
                Red: cmsCIExyY(x: red.x, y: red.y, Y: 1), Green: cmsCIExyY(x: green.x, y: green.y, Y: 1),
                Blue: cmsCIExyY(x: blue.x, y: blue.y, Y: 1))
            guard let tone = curve.build(ctx) else { return nil }
            defer { cmsFreeToneCurve(tone) }
            var curves: [OpaquePointer?] = [tone, tone, tone]
            guard
                let profile = curves.withUnsafeMutableBufferPointer({
                    cmsCreateRGBProfileTHR(ctx, &wp, &primaries, $0.baseAddress)
                })
            else { return nil }
            defer { cmsCloseProfile(profile) }
            return Self.serialise(profile)
        }
        return bytes
    }

    /// The ICC bytes of an open profile (nil when lcms cannot write it).
    static func serialise(_ profile: cmsHPROFILE) -> [UInt8]? {
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let ok = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &size) }
        return ok != 0 ? Array(bytes.prefix(Int(size))) : nil
    }
}

/// Where the lcms error handler (a C function with no captures) leaves its messages: reached
/// through the context's user-data pointer.
private final class MessageSink: Sendable {
    static let shared = MessageSink()
    private let messages = Locked<[String]>([])

    func record(_ text: String) {
        messages.withLock { if $0.count < 8 { $0.append(text) } }
    }

    func reset() { messages.withLock { $0.removeAll() } }

    func first() -> String? { messages.withLock { $0.first } }
}
