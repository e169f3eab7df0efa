// SPDX-License-Identifier: Apache-2.0
import CLCMS2
import CThumbKit
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// Test-time colour fixtures, made with Little CMS directly (never through ThumbKit's own
/// colour code, so the fidelity tests compare against an independent conversion): standard
/// profiles, sRGB ⇄ profile conversions, CMYK JPEGs, JPEGs with hand-made APP2 chunks.
enum ColorFixtures {
    /// A standard RGB working space.
    struct Space: Sendable, CustomStringConvertible {
        let name: String
        let white: (Double, Double)
        let primaries: [(Double, Double)]
        /// nil: the sRGB curve; else a pure power law.
        let gamma: Double?
        var description: String { name }
    }

    // Adobe RGB (1998) v2.1.0 §4.3.1.2–4.3.4.2: D65, gamma 563/256.
    static let adobeRGB = Space(
        name: "Adobe RGB (1998)", white: (0.3127, 0.3290),
        primaries: [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], gamma: 563.0 / 256)
    // ProPhoto / ROMM RGB (ISO 22028-2): D50, gamma 1.8.
    static let proPhoto = Space(
        name: "ProPhoto RGB", white: (0.3457, 0.3585),
        primaries: [(0.7347, 0.2653), (0.1596, 0.8404), (0.0366, 0.0001)], gamma: 1.8)
    // Display P3: DCI-P3 primaries, D65, the sRGB curve.
    static let displayP3 = Space(
        name: "Display P3", white: (0.3127, 0.3290),
        primaries: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], gamma: nil)

    /// A CMYK press profile from Debian's libgs-common (Ghostscript's SWOP-like default), when
    /// installed (scripts/lib.sh TEST_PACKAGES).
    static let cmykProfilePath = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    /// What a test that uses ``pressProfile(sourceLocation:)`` carries as `.needs(press)`.
    static let press = ToolRequirement.file(cmykProfilePath, package: "libgs-common")

    /// The CMYK press profile's bytes; when it is missing (the test then only runs under
    /// `CI=true`, see ``press``), nil after a recorded failure.
    static func pressProfile(sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8]? {
        guard ToolRequirement.require([press], sourceLocation: sourceLocation),
            let data = FileManager.default.contents(atPath: cmykProfilePath)
        else { return nil }
        return [UInt8](data)
    }

    /// The ICC bytes of `space`, built by lcms.
    static func icc(_ space: Space) -> [UInt8] {
        let curve: OpaquePointer
        if let gamma = space.gamma {
            curve = cmsBuildGamma(nil, gamma)!
        } else {
            let p: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            curve = cmsBuildParametricToneCurve(nil, 4, p)!
        }
        defer { cmsFreeToneCurve(curve) }
        var wp = cmsCIExyY(x: space.white.0, y: space.white.1, Y: 1)
        let pr = space.primaries
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: pr[0].0, y: pr[0].1, Y: 1), Green: cmsCIExyY(x: pr[1].0, y: pr[1].1, Y: 1),
            Blue: cmsCIExyY(x: pr[2].0, y: pr[2].1, Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&wp, &triple, $0.baseAddress) }!
        defer { cmsCloseProfile(profile) }
        return save(profile)
    }

    /// A gray profile with a pure power-law curve (1 = linear light), D65.
    static func grayICC(gamma: Double) -> [UInt8] {
        let curve = cmsBuildGamma(nil, gamma)!
        defer { cmsFreeToneCurve(curve) }
        var wp = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        let profile = cmsCreateGrayProfile(&wp, curve)!
        defer { cmsCloseProfile(profile) }
        return save(profile)
    }

    static func save(_ profile: cmsHPROFILE) -> [UInt8] {
        var size: UInt32 = 0
        _ = cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        _ = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &size) }
        return bytes
    }

    static let rgba8: UInt32 = 4 << 16 | 1 << 7 | 3 << 3 | 1  // TYPE_RGBA_8
    static let cmyk8: UInt32 = 6 << 16 | 4 << 3 | 1  // TYPE_CMYK_8
    static let cmyk8Reversed: UInt32 = cmyk8 | 1 << 13  // TYPE_CMYK_8_REV

    /// Converts 4-byte pixels between two profiles (nil = lcms's built-in sRGB), relative
    /// colorimetric, and returns the 4-byte result (alpha 255 for RGBA output).
    static func convert(
        _ pixels: [UInt8], from source: [UInt8]?, format inFormat: UInt32, to destination: [UInt8]?,
        format outFormat: UInt32
    ) -> [UInt8] {
        func open(_ icc: [UInt8]?) -> cmsHPROFILE {
            guard let icc else { return cmsCreate_sRGBProfile()! }
            return icc.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }!
        }
        let a = open(source)
        let b = open(destination)
        defer {
            cmsCloseProfile(a)
            cmsCloseProfile(b)
        }
        let transform = cmsCreateTransform(a, inFormat, b, outFormat, 1, 0)!
        defer { cmsDeleteTransform(transform) }
        var out = [UInt8](repeating: 255, count: pixels.count)
        pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                cmsDoTransform(transform, src.baseAddress, dst.baseAddress, UInt32(pixels.count / 4))
            }
        }
        return out
    }

    /// A colourful photo from the corpus, decoded (sRGB): skimage's astronaut, reduced from
    /// 512×512 to 256×256 to keep the tests quick (the thumbnails are 88×88).
    static func photo() throws -> PixelBuffer {
        let full = try ImageDecoders.decode(try TestCorpus.bytes(of: "photos/astronaut.png"), path: "astronaut.png")
        return ImageProcessors.Resize(ResizeOptions(width: 256, height: 256)).process(full.buffer)
    }

    /// A JPEG of raw 4-byte pixels: CMYK (stored as given) when `cmyk`, else RGBX; with `icc`
    /// embedded when given. Quality 95, 4:4:4.
    static func jpeg(_ pixels: [UInt8], width: Int, height: Int, cmyk: Bool, icc: [UInt8]?) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var err = [CChar](repeating: 0, count: Int(TK_ERR_LEN))
        let iccBytes = icc ?? []
        let rc = pixels.withUnsafeBufferPointer { px in
            iccBytes.withUnsafeBufferPointer { ic in
                tk_jpeg_encode_color(
                    px.baseAddress, UInt32(width), UInt32(height), 4, cmyk ? 1 : 0, 95, 1, 0, 1,
                    icc == nil ? nil : ic.baseAddress, iccBytes.count, &out, &size, &err)
            }
        }
        precondition(rc == 0, "test JPEG encode failed")
        defer { tk_free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }

    /// An RGBA PNG with an iCCP chunk holding `icc` and, when given, a gAMA chunk (gamma × 100000).
    static func png(_ image: PixelBuffer, icc: [UInt8], gamma: UInt32?) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var err = [CChar](repeating: 0, count: Int(TK_ERR_LEN))
        var color = tk_png_color()
        if let gamma {
            color.has_gamma = 1
            color.gamma = gamma
        }
        let rc = image.pixels.withUnsafeBufferPointer { px in
            icc.withUnsafeBufferPointer { ic in
                tk_png_encode_text(
                    px.baseAddress, UInt32(image.width), UInt32(image.height), 4, 6, 0, &color, ic.baseAddress,
                    icc.count, nil, 0, &out, &size, &err)
            }
        }
        precondition(rc == 0, "test PNG encode failed")
        defer { tk_free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }

    /// A one-channel gray JPEG, untagged or with `icc`.
    static func grayJPEG(_ gray: [UInt8], width: Int, height: Int, icc: [UInt8]?) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var err = [CChar](repeating: 0, count: Int(TK_ERR_LEN))
        let iccBytes = icc ?? []
        let rc = gray.withUnsafeBufferPointer { px in
            iccBytes.withUnsafeBufferPointer { ic in
                tk_jpeg_encode_color(
                    px.baseAddress, UInt32(width), UInt32(height), 1, 0, 95, 1, 0, 1,
                    icc == nil ? nil : ic.baseAddress, iccBytes.count, &out, &size, &err)
            }
        }
        precondition(rc == 0, "test JPEG encode failed")
        defer { tk_free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }

    /// `jpeg` with APP2 segments inserted right after SOI, each payload as given.
    static func insertingAPP2(_ payloads: [[UInt8]], into jpeg: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        for p in payloads {
            let length = p.count + 2
            out += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + p
        }
        return out + jpeg[2...]
    }

    /// APP2 ICC_PROFILE payloads carrying `icc` in `count` chunks, numbered 1...count.
    static func iccChunks(_ icc: [UInt8], count: Int) -> [[UInt8]] {
        let size = (icc.count + count - 1) / count
        return (0..<count).map { i in
            let part = icc[min(icc.count, i * size)..<min(icc.count, (i + 1) * size)]
            return Array("ICC_PROFILE".utf8) + [0, UInt8(i + 1), UInt8(count)] + part
        }
    }

    /// A PNG with its gAMA chunk removed (the rest byte for byte): libpng then hands back the
    /// stored samples, which is how the gamma tests learn what the file holds.
    static func removingGAMA(_ png: [UInt8]) -> [UInt8] {
        var out = Array(png[0..<8])
        var i = 8
        while i + 12 <= png.count {
            let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            let end = i + 12 + length
            if type != "gAMA" { out += png[i..<end] }
            i = end
        }
        return out
    }

    /// The chunk types of a PNG, in order.
    static func pngChunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var i = 8
        while i + 12 <= png.count {
            let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            types.append(String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self))
            i += 12 + length
        }
        return types
    }
}
