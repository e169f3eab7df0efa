// SPDX-License-Identifier: Apache-2.0
extension SourceColor {
    /// The `ICC_PROFILE\0` signature that starts each APP2 chunk of an embedded profile.
    static let iccMarkerSignature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// The ICC profile embedded in a JPEG's APP2 `ICC_PROFILE` markers (ICC.1 annex B.4): each
    /// chunk carries its 1-based sequence number and the chunk count, and the chunks may come in
    /// any order, anywhere before the first scan. Chunks that are missing, duplicated or
    /// disagree on the count make the profile unusable: a warning, and the image is untagged.
    static func jpeg(_ data: [UInt8]) -> SourceColor {
        var chunks: [Int: ArraySlice<UInt8>] = [:]
        var declaredCounts = Set<Int>()
        var problem: String?
        let signature = iccMarkerSignature
        for segment in JPEGSegments(data) where segment.marker == 0xE2 {
            let payload = segment.payload
            guard payload.count >= signature.count + 2,
                payload.prefix(signature.count).elementsEqual(signature)
            else { continue }
            let start = payload.startIndex + signature.count
            let sequence = Int(payload[start])
            declaredCounts.insert(Int(payload[start + 1]))
            if sequence == 0 || chunks[sequence] != nil {
                problem = "APP2 ICC_PROFILE chunk number \(sequence) is invalid or repeated"
            }
            chunks[sequence] = payload[(start + 2)...]
        }
        if chunks.isEmpty { return .srgb }
        if problem == nil {
            if declaredCounts.count != 1 {
                problem = "APP2 ICC_PROFILE chunks disagree on their count"
            } else if let count = declaredCounts.first, count == 0 || Set(chunks.keys) != Set(1...count) {
                problem = "APP2 ICC_PROFILE chunks are missing (\(chunks.count) of \(declaredCounts.first!))"
            }
        }
        if let problem { return SourceColor(warnings: [ignored(problem)]) }
        var bytes: [UInt8] = []
        for sequence in chunks.keys.sorted() { bytes += chunks[sequence]! }
        guard bytes.count <= iccMaxBytes else {
            return SourceColor(warnings: [ignored("the embedded ICC profile is larger than \(iccMaxBytes) bytes")])
        }
        return SourceColor(profile: ColorProfile(iccData: bytes))
    }

    /// Largest profile accepted (the shims' TK_ICC_MAX_BYTES).
    static let iccMaxBytes = 4 * 1024 * 1024

    /// The warning for a profile that cannot be used: `embedded ICC profile ignored (image
    /// treated as sRGB): <reason>`.
    static func ignored(_ reason: String) -> String {
        "embedded ICC profile ignored (image treated as sRGB): \(reason)"
    }
}
