// SPDX-License-Identifier: Apache-2.0
import CCrypto
import ThumbKit

/// imgproxy's URL signatures: `base64url_nopad(HMAC-SHA256(key, salt ‖ path))`, where `path` is
/// everything after the signature segment, from its `/`. Several (key, salt) pairs allow rotation:
/// a signature made with any of them verifies. With no pairs the server is insecure: any
/// signature segment is accepted (except one containing `:`, which is an option, so the segment
/// is missing, as imgproxy answers too).
///
/// Keys and salts never leave this value: `description`, `debugDescription` and its mirror (what
/// `dump` prints) say only how many pairs there are.
package struct ImgproxySigner: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// One key and its salt, decoded from hex.
    private struct Pair: Sendable {
        let key: [UInt8]
        let salt: [UInt8]
    }

    private let pairs: [Pair]

    /// The length of an HMAC-SHA256, and so of every decoded signature.
    package static let signatureByteCount = 32

    /// Pairs of hex strings (imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT`). Throws, without
    /// quoting it, for a key or salt that is empty or not an even number of hex digits.
    package init(pairs: [(key: String, salt: String)]) throws(ImgproxyError) {
        var decoded: [Pair] = []
        for (index, pair) in pairs.enumerated() {
            guard let key = Self.hexBytes(pair.key), !key.isEmpty else {
                throw .invalidKey(reason: "key \(index + 1) is not a non-empty string of hex digit pairs")
            }
            guard let salt = Self.hexBytes(pair.salt), !salt.isEmpty else {
                throw .invalidKey(reason: "salt \(index + 1) is not a non-empty string of hex digit pairs")
            }
            decoded.append(Pair(key: key, salt: salt))
        }
        self.pairs = decoded
    }

    /// True when there are no keys: signatures are not checked.
    package var isInsecure: Bool { pairs.isEmpty }

    /// Whether `signature` (base64url, no padding) signs `path` under any pair. The comparison
    /// is constant-time: every pair's HMAC is computed and compared with `CRYPTO_memcmp`, and the
    /// results are combined without stopping early. A signature that is not 32 bytes of base64url
    /// fails (its length is not secret).
    package func verify(signature: some StringProtocol, path: some StringProtocol) -> Bool {
        if pairs.isEmpty { return !signature.contains(":") }
        guard let given = Base64URL.decode(signature), given.count == Self.signatureByteCount else { return false }
        var matched: Int32 = 1
        for pair in pairs {
            let expected = Self.hmac(pair, path: path)
            let difference = given.withUnsafeBytes { a in
                expected.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, Self.signatureByteCount) }
            }
            // 0 when equal: `matched` becomes 0 as soon as one pair matched, and stays 0.
            matched &= difference == 0 ? 0 : 1
        }
        return matched == 0
    }

    /// The signature of `path` under the first pair (for tests and URL-building tools); empty when
    /// insecure. `path` starts with `/`, as in `verify`.
    package func sign(path: some StringProtocol) -> String {
        guard let pair = pairs.first else { return "" }
        return Base64URL.encode(Self.hmac(pair, path: path))
    }

    package var description: String { "ImgproxySigner(\(pairs.count) key pair\(pairs.count == 1 ? "" : "s"))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["keyPairs": pairs.count]) }

    /// HMAC-SHA256(key, salt ‖ path), with a `/` put in front of a path that lacks it (as imgproxy does).
    private static func hmac(_ pair: Pair, path: some StringProtocol) -> [UInt8] {
        var message = pair.salt
        if !path.hasPrefix("/") { message.append(UInt8(ascii: "/")) }
        message.append(contentsOf: path.utf8)
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = pair.key.withUnsafeBytes { key in
            message.withUnsafeBytes { data in
                out.withUnsafeMutableBytes { digest in
                    HMAC(
                        EVP_sha256(), key.baseAddress, Int32(key.count),
                        data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count,
                        digest.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
                }
            }
        }
        precondition(result != nil && length == UInt32(signatureByteCount), "HMAC-SHA256 failed.")
        return Array(out.prefix(signatureByteCount))
    }

    /// Bytes from hex digit pairs; nil for an odd count or any other character.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let hi = HexDigit.value(digits[i]), let lo = HexDigit.value(digits[i + 1]) else {
                return nil
            }
            bytes.append(hi << 4 | lo)
        }
        return bytes
    }
}
