// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The known sRGB profiles (KnownSRGBProfiles.swift) skip building a transform. That is only
/// right if building one would find an identity under every intent and compensation, so each
/// entry's profile is taken from an image that carries it and its transforms are built the
/// usual way (`ColorTransformCache.build`, which does not consult the table).
struct KnownSRGBProfilesTests {
    /// Images in the test corpus carrying entries of the table.
    static let corpusImages = [
        "photos/hubble_deep_field.jpg",  // HP sRGB IEC61966-2.1, 3144 bytes
        "photos/chelsea.png",  // the same, in an iCCP chunk
        "photos/plasma_ColorfulCups_2560x1600.jpg",  // sRGB, 6924 bytes
        "jpeg/pillow/ultrahdr.jpg",  // Google's compact sRGB, 596 bytes
        "jpeg/libjpeg-turbo/monkey12.jpg",  // sRGB2014, 3024 bytes
    ]

    /// Images of the benchmark photos (scripts/bench-corpus) carrying the other entries; checked
    /// when that folder exists, as `BaselineDCDecodingTests` does.
    static let benchImages = [
        "jpeg/lomiri-Painting-Colors_by__herobrine7gamer.jpg", "jpeg/ukui-string.jpg",
        "png/plasma-Patak-1080x1920.png", "png/plasma-Patak-dark-3840x2160.png",
        "png/plasma-FlyingKonqui-2560x1600.png", "png/plasma-Altai-1080x1920.png",
    ]
    static let benchRoot = "/root/bench-corpus"

    /// Ghostscript's sRGB profile, from Debian's libgs-common (scripts/lib.sh TEST_PACKAGES).
    static let ghostscriptSRGB = "/usr/share/color/icc/ghostscript/srgb.icc"

    /// The embedded profile of an image file's bytes.
    static func profile(of data: [UInt8]) -> ColorProfile? {
        data.starts(with: [0xFF, 0xD8]) ? SourceColor.jpeg(data).profile : SourceColor.png(data).profile
    }

    /// Every (intent, compensation) transform of `profile` built without the table: all identities.
    static func isIdentityEverywhere(_ profile: ColorProfile) -> Bool {
        RenderingIntent.allCases.allSatisfy { intent in
            [false, true].allSatisfy { bpc in
                let key = ColorTransformCache.Key(
                    profile: profile, layout: .rgba, intent: intent, blackPointCompensation: bpc)
                if case .identity = ColorTransformCache.build(key) { return true }
                return false
            }
        }
    }

    /// Checks every table entry found in `profiles`; the names of those found.
    static func verify(_ profiles: [ColorProfile]) -> Set<String> {
        var found: Set<String> = []
        for profile in profiles where KnownSRGBProfiles.contains(profile) {
            let entry = KnownSRGBProfiles.entries.first { $0.digest == profile.digest }
            found.insert("\(entry?.name ?? "?") \(profile.data.count)")
            #expect(
                Self.isIdentityEverywhere(profile), "\(profile): listed as sRGB, but its transform is not an identity")
        }
        return found
    }

    @Test(.needsCorpus, .tags(.corpus))
    func corpusEntriesAreIdentitiesUnderEveryIntent() throws {
        guard TestCorpus.requireCorpus() else { return }
        let profiles = try Self.corpusImages.map { path in
            try #require(Self.profile(of: try TestCorpus.bytes(of: path)), "\(path) carries no profile")
        }
        #expect(profiles.allSatisfy(KnownSRGBProfiles.contains))
        #expect(Self.verify(profiles).count == 4)
    }

    @Test func benchAndGhostscriptEntriesAreIdentitiesUnderEveryIntent() throws {
        var profiles: [ColorProfile] = []
        for path in Self.benchImages {
            guard let data = FileManager.default.contents(atPath: "\(Self.benchRoot)/\(path)") else { continue }
            profiles.append(try #require(Self.profile(of: [UInt8](data)), "\(path) carries no profile"))
        }
        if let data = FileManager.default.contents(atPath: Self.ghostscriptSRGB) {
            profiles.append(ColorProfile(iccData: [UInt8](data)))
        }
        #expect(profiles.allSatisfy(KnownSRGBProfiles.contains))
        let found = Self.verify(profiles)
        print("known sRGB profiles checked outside the test corpus: \(found.sorted())")
    }

    @Test func everyEntryIsDistinct() {
        let keys = KnownSRGBProfiles.entries.map { "\($0.count)/\($0.digest)" }
        #expect(Set(keys).count == keys.count)
    }

    @Test(.needsCorpus, .tags(.corpus))
    func knownProfileBuildsNothingAndAnAlteredOneIsBuiltAsBefore() throws {
        guard TestCorpus.requireCorpus() else { return }
        let known = try #require(Self.profile(of: try TestCorpus.bytes(of: "photos/hubble_deep_field.jpg")))
        let cache = ColorTransformCache()
        for intent in RenderingIntent.allCases {
            let key = ColorTransformCache.Key(
                profile: known, layout: .rgba, intent: intent, blackPointCompensation: true)
            guard case .identity = cache.prepared(for: key) else {
                Issue.record("a known sRGB profile was not an identity")
                return
            }
        }
        #expect(cache.buildCount == 0)
        // The header's creation time one second off: not in the table, so built (and still an
        // identity: lcms does not read the date).
        var bytes = known.data
        bytes[35] ^= 1
        let altered = ColorProfile(iccData: bytes)
        #expect(!KnownSRGBProfiles.contains(altered))
        guard
            case .identity = cache.prepared(
                for: ColorTransformCache.Key(
                    profile: altered, layout: .rgba, intent: .relative, blackPointCompensation: false))
        else {
            Issue.record("the altered sRGB profile was not found to be an identity")
            return
        }
        #expect(cache.buildCount == 1)
        // A known RGB profile on gray pixels with a gray layout is not short-cut: built, refused.
        let gray = ColorTransformCache.Key(
            profile: known, layout: .grayInRGBA, intent: .relative, blackPointCompensation: false)
        guard case .unusable = cache.prepared(for: gray) else {
            Issue.record("an RGB profile was accepted for a gray layout")
            return
        }
        #expect(cache.buildCount == 2)
    }
}
