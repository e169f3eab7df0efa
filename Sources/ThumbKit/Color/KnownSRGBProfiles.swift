// SPDX-License-Identifier: Apache-2.0
/// The sRGB ICC profiles photos most often carry, recognised by their bytes so that their
/// (identity) transform to sRGB is never built: opening a 3–9 KB profile, building an lcms
/// transform and probing it costs about a millisecond, a few percent of a one-file thumbnail.
///
/// A profile is known when its size and FNV-1a digest (`ColorProfile.digest`, over every byte)
/// match an entry. The digest is no proof against a crafted profile, and needs none: a file
/// whose profile collides with an entry is left as sRGB, which is what it could have claimed by
/// carrying sRGB's own profile. Only RGB profiles that `ColorTransformCache` finds to be an
/// identity under every rendering intent, with and without black-point compensation, may be
/// listed (`KnownSRGBProfilesTests` builds each one's transforms and checks that), so skipping
/// the build changes no output byte.
enum KnownSRGBProfiles {
    /// One known profile.
    struct Entry: Sendable {
        /// The profile's size in bytes.
        let count: Int
        /// FNV-1a (64-bit) of the whole profile.
        let digest: UInt64
        /// The profile's description tag, and where it is commonly found (for people).
        let name: String
    }

    /// The table. Where a test can find each one is in `KnownSRGBProfilesTests`.
    static let entries: [Entry] = [
        Entry(count: 3144, digest: 0x56d2_cbfc_a6b5_4318, name: "sRGB IEC61966-2.1 (HP, 1998; Photoshop, cameras)"),
        Entry(count: 3024, digest: 0x190f_0cbe_0744_3404, name: "sRGB2014 (ICC)"),
        Entry(count: 6924, digest: 0xd723_7779_3087_7a79, name: "sRGB (Little CMS, v2, with a profile ID)"),
        Entry(count: 596, digest: 0x782c_80a3_41b8_47ee, name: "sRGB IEC61966-2.1 (Google, v4, compact)"),
        Entry(count: 2576, digest: 0x43f7_b099_aa77_a523, name: "Artifex Software sRGB ICC Profile (Ghostscript)"),
        Entry(count: 9080, digest: 0xe37c_98eb_6dc3_d4ca, name: "sRGB-elle-V2-srgbtrc.icc (GIMP 2.10 exports)"),
        Entry(count: 600, digest: 0xde73_d5bd_6a3b_3b9b, name: "sRGB IEC61966-2.1 (Little CMS, v4, compact)"),
        Entry(count: 596, digest: 0xad38_a2d7_1395_fc36, name: "sRGB IEC61966-2.1 (Little CMS, v4, compact)"),
        Entry(count: 596, digest: 0x5aa4_6a43_e1f9_b315, name: "sRGB IEC61966-2.1 (Little CMS, v4, compact)"),
        Entry(count: 592, digest: 0xa243_ee85_798b_7e29, name: "sRGB built-in (GIMP 2.10, v4, compact)"),
        Entry(count: 588, digest: 0xd4f3_f142_7585_69d8, name: "sRGB built-in (GIMP 2.10, v4, compact)"),
    ]

    /// True when `profile` is one of `entries`.
    static func contains(_ profile: ColorProfile) -> Bool {
        entries.contains { $0.count == profile.data.count && $0.digest == profile.digest }
    }
}
