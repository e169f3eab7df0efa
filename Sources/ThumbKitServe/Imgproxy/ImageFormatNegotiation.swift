// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// Chooses the output format from a request's `Accept` header when the URL names none.
///
/// AVIF and WebP are served only to clients that name them (`image/avif`, `image/webp`) with a
/// q-value above 0, as imgproxy does: `image/*` and `*/*` promise no more than the classic formats
/// (curl's `*/*` gets a JPEG, not an AVIF it may not show). Among the formats a client accepts, the
/// highest q-value wins; ties go to AVIF, then WebP, then the classic format: JPEG, or PNG for a
/// source with alpha. A client that accepts none of them (or sends no `Accept`) still gets the
/// classic format, never a 406.
package enum ImageFormatNegotiation {
    /// The chosen format, and whether it came from `Accept` (then the answer needs `Vary: Accept`).
    package struct Choice: Sendable, Hashable {
        package let format: ImageFormat
        package let variesWithAccept: Bool
    }

    /// `requested` (from `f:` or `@ext`) when given; otherwise the negotiated format.
    package static func choose(requested: ImageFormat?, accept: String?, sourceHasAlpha: Bool) -> Choice {
        if let requested { return Choice(format: requested, variesWithAccept: false) }
        let ranges = parse(accept ?? "")
        let classic: ImageFormat = sourceHasAlpha ? .png : .jpeg
        var best = classic
        var bestQ = 0.0
        // In order of preference: a later candidate must beat the q-value, not tie it.
        for candidate in [ImageFormat.avif, .webp] {
            let q = quality(of: "image/\(candidate.rawValue)", in: ranges, exactOnly: true)
            if q > bestQ {
                best = candidate
                bestQ = q
            }
        }
        let classicQ = quality(of: sourceHasAlpha ? "image/png" : "image/jpeg", in: ranges, exactOnly: false)
        if bestQ == 0 || classicQ > bestQ { best = classic }
        return Choice(format: best, variesWithAccept: true)
    }

    /// One media range of an `Accept` header: `type/subtype` in lower case, and its q-value.
    struct MediaRange: Hashable {
        let type: String
        let subtype: String
        let q: Double
    }

    /// The media ranges of an `Accept` value; ranges that do not parse (or have a bad q) are skipped.
    static func parse(_ header: String) -> [MediaRange] {
        var ranges: [MediaRange] = []
        for element in header.split(separator: ",").prefix(64) {
            let params = element.split(separator: ";", omittingEmptySubsequences: false)
            let media = params[0].trimmingSpaces.lowercased()
            let halves = media.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else { continue }
            var q = 1.0
            var valid = true
            for param in params.dropFirst() {
                let pair = param.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" else { continue }
                if let value = qValue(pair[1].trimmingSpaces) { q = value } else { valid = false }
            }
            if valid { ranges.append(MediaRange(type: String(halves[0]), subtype: String(halves[1]), q: q)) }
        }
        return ranges
    }

    /// RFC 9110 §12.4.2: `0[.ddd]` or `1[.000]`.
    private static func qValue(_ text: Substring) -> Double? {
        guard let value = CanonicalDecimal.parse(text, allowNegative: false), value <= 1,
            text.utf8.count <= 5
        else { return nil }
        return value
    }

    /// The q-value of `mediaType` under the most specific range that matches it (`type/subtype`,
    /// then `type/*`, then `*/*`), or 0 when none does. With `exactOnly`, only `type/subtype` counts.
    static func quality(of mediaType: String, in ranges: [MediaRange], exactOnly: Bool) -> Double {
        let halves = mediaType.split(separator: "/")
        let type = String(halves[0])
        let subtype = String(halves[1])
        var specificity = -1
        var q = 0.0
        for range in ranges {
            let level: Int
            if range.type == type && range.subtype == subtype {
                level = 2
            } else if !exactOnly && range.type == type && range.subtype == "*" {
                level = 1
            } else if !exactOnly && range.type == "*" && range.subtype == "*" {
                level = 0
            } else {
                continue
            }
            // The most specific range decides; among equally specific ones, the first.
            if level > specificity {
                specificity = level
                q = range.q
            }
        }
        return q
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
