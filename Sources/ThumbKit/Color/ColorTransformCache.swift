// SPDX-License-Identifier: Apache-2.0
import CLCMS2
import Synchronization

/// Built Little CMS transforms to sRGB, one per (profile, layout, intent, black-point
/// compensation), so a batch of files from one camera parses its profile and builds
/// its transform once. Also remembers profiles that are sRGB in all but name (`.identity`) and
/// profiles lcms refused (`.unusable`), so neither is worked out again.
///
/// Thread-safe: lookups and builds happen under one lock (a build takes about a millisecond and
/// happens once per profile); the transforms it hands out may be used from any thread.
final class ColorTransformCache: Sendable {
    /// The cache the decoders use.
    static let shared = ColorTransformCache()

    /// Everything a transform depends on.
    struct Key: Hashable, Sendable {
        var profile: ColorProfile
        var layout: SourceLayout
        var intent: RenderingIntent
        var blackPointCompensation: Bool
    }

    /// What a key leads to.
    enum Prepared: Sendable {
        /// The profile is sRGB to within one 8-bit step everywhere: leave the pixels alone.
        case identity
        /// Convert with this transform.
        case transform(ColorTransform)
        /// lcms refused the profile, or it does not fit the image; the reason, lower-case.
        case unusable(String)
    }

    /// Most entries kept; a batch that exceeds it (every file its own profile) starts over.
    static let capacity = 64

    private let entries = Locked<[Key: Prepared]>([:])
    private let builds = Atomic<Int>(0)

    init() {}

    /// Transforms built so far (for tests: a cache hit builds nothing).
    var buildCount: Int { builds.load(ordering: .relaxed) }

    /// The prepared transform for `key`, built on first use. A known sRGB profile
    /// (`KnownSRGBProfiles`) on RGB pixels is `.identity` at once: what building would find.
    func prepared(for key: Key) -> Prepared {
        if key.layout == .rgba && KnownSRGBProfiles.contains(key.profile) { return .identity }
        return entries.withLock { entries in
            if let found = entries[key] { return found }
            let made = Self.build(key)
            builds.add(1, ordering: .relaxed)
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = made
            return made
        }
    }

    /// Opens the profile, checks it fits the layout, builds the transform and tests it for
    /// being an identity (`KnownSRGBProfilesTests` calls it to check the table).
    static func build(_ key: Key) -> Prepared {
        let (result, message) = LittleCMS.shared.withErrors { ctx -> Prepared? in
            let source = key.profile.data.withUnsafeBytes {
                cmsOpenProfileFromMemTHR(ctx, $0.baseAddress, UInt32(clamping: $0.count))
            }
            guard let source else { return nil }
            defer { cmsCloseProfile(source) }
            if let misfit = misfit(source, layout: key.layout) { return .unusable(misfit) }
            guard let srgb = cmsCreate_sRGBProfileTHR(ctx) else { return nil }
            defer { cmsCloseProfile(srgb) }
            var flags: UInt32 = key.blackPointCompensation ? UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION) : 0
            let gray = key.layout == .grayInRGBA
            if gray { flags |= UInt32(cmsFLAGS_NOOPTIMIZE) }  // full precision: only 256 values
            let handle = cmsCreateTransformTHR(
                ctx, source, key.layout.lcmsFormat, srgb, LittleCMS.rgba8, key.intent.lcmsValue, flags)
            guard let handle else { return nil }
            let transform: ColorTransform
            if gray {
                transform = ColorTransform(grayThrough: handle)
                cmsDeleteTransform(handle)
            } else {
                transform = ColorTransform(handle: handle, layout: key.layout)
            }
            return isIdentity(transform) ? .identity : .transform(transform)
        }
        if let result { return result }
        return .unusable(CodecMessage.normalized(message ?? "Little CMS could not use the profile"))
    }

    /// Why `profile` cannot describe pixels in `layout`, or nil when it can.
    private static func misfit(_ profile: cmsHPROFILE, layout: SourceLayout) -> String? {
        let deviceClass = cmsGetDeviceClass(profile)
        if [cmsSigLinkClass, cmsSigAbstractClass, cmsSigNamedColorClass].contains(deviceClass) {
            return "the profile is a device link, abstract or named-colour profile, not an image profile"
        }
        let space = cmsGetColorSpace(profile)
        let wanted: cmsColorSpaceSignature
        switch layout {
        case .rgba: wanted = cmsSigRgbData
        case .grayInRGBA: wanted = cmsSigGrayData
        case .cmyk, .cmykInverted: wanted = cmsSigCmykData
        }
        if space != wanted {
            return "the profile's colour space (\(signatureText(space.rawValue))) does not match the image"
        }
        return nil
    }

    /// A 4-byte ICC signature as text (`RGB`, `CMYK`).
    static func signatureText(_ value: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        let text = String(decoding: bytes.map { (32...126).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        return String(text.reversed().drop { $0 == " " }.reversed())
    }

    /// True when the transform moves no sample of a 16-level grid (a 256-level ramp for gray)
    /// by more than one 8-bit step: an sRGB profile under another name, safe to skip.
    private static func isIdentity(_ transform: ColorTransform) -> Bool {
        var probe: [UInt8] = []
        switch transform.layout {
        case .rgba:
            let levels = (0..<16).map { UInt8($0 * 17) }
            for r in levels { for g in levels { for b in levels { probe += [r, g, b, 255] } } }
        case .grayInRGBA:
            for v in 0...255 { probe += [UInt8(v), UInt8(v), UInt8(v), 255] }
        case .cmyk, .cmykInverted:
            return false
        }
        var out = probe
        transform.apply(&out)
        for i in 0..<probe.count where i % 4 != 3 && abs(Int(out[i]) - Int(probe[i])) > 1 {
            return false
        }
        return true
    }
}
