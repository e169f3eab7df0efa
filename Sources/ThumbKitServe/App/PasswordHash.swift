// SPDX-License-Identifier: Apache-2.0
import CCrypto
import Foundation

/// The edit password's stored form (`thumbkit serve hash-password`), one line:
///
///     scrypt$N$r$p$SALT$HASH          (scrypt, the default: N = 2^15, r = 8, p = 1)
///     pbkdf2-sha256$ITERATIONS$SALT$HASH
///
/// with SALT (16 random bytes) and HASH (32 bytes) in unpadded base64url. Both go through
/// OpenSSL (`EVP_PBE_scrypt`, `PKCS5_PBKDF2_HMAC`); a check compares with `CRYPTO_memcmp`, so
/// its time does not depend on how much of the hash matched. Neither the password nor the hash
/// is ever printed by the server.
package struct PasswordHash: Sendable, Hashable {
    /// The key derivation and its cost.
    package enum Function: Sendable, Hashable {
        case scrypt(n: UInt64, r: UInt64, p: UInt64)
        case pbkdf2(iterations: Int)
    }

    package let function: Function
    package let salt: [UInt8]
    package let hash: [UInt8]

    /// Bytes of the derived key.
    static let hashByteCount = 32
    /// scrypt's default cost: about 32 MiB and 0.1 s here.
    package static let defaultScrypt = Function.scrypt(n: 1 << 15, r: 8, p: 1)

    /// A new hash of `password` with a fresh random salt.
    package static func make(password: String, function: Function = defaultScrypt) -> PasswordHash? {
        guard let salt = SecureRandom.bytes(16), let hash = derive(password, salt: salt, function: function) else {
            return nil
        }
        return PasswordHash(function: function, salt: salt, hash: hash)
    }

    /// Parses the stored line (surrounding white space ignored); nil when it is not one.
    package init?(parsing text: String) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "$").map(String.init)
        switch parts.first {
        case "scrypt":
            guard parts.count == 6, let n = UInt64(parts[1]), let r = UInt64(parts[2]), let p = UInt64(parts[3]),
                n >= 2, n <= 1 << 20, n & (n - 1) == 0, (1...32).contains(r), (1...16).contains(p)
            else { return nil }
            function = .scrypt(n: n, r: r, p: p)
            guard let salt = Base64URL.decode(parts[4]), let hash = Base64URL.decode(parts[5]) else { return nil }
            (self.salt, self.hash) = (salt, hash)
        case "pbkdf2-sha256":
            guard parts.count == 4, let iterations = Int(parts[1]), (1000...10_000_000).contains(iterations) else {
                return nil
            }
            function = .pbkdf2(iterations: iterations)
            guard let salt = Base64URL.decode(parts[2]), let hash = Base64URL.decode(parts[3]) else { return nil }
            (self.salt, self.hash) = (salt, hash)
        default:
            return nil
        }
        guard salt.count >= 8, hash.count == Self.hashByteCount else { return nil }
    }

    init(function: Function, salt: [UInt8], hash: [UInt8]) {
        self.function = function
        self.salt = salt
        self.hash = hash
    }

    /// The stored line.
    package var encoded: String {
        switch function {
        case .scrypt(let n, let r, let p):
            "scrypt$\(n)$\(r)$\(p)$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
        case .pbkdf2(let iterations):
            "pbkdf2-sha256$\(iterations)$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
        }
    }

    /// Whether `password` is the one hashed (a blocking call of about 0.1 s: not on a
    /// cooperative thread).
    package func verify(_ password: String) -> Bool {
        guard let candidate = Self.derive(password, salt: salt, function: function) else { return false }
        return SecureRandom.constantTimeEqual(candidate, hash)
    }

    private static func derive(_ password: String, salt: [UInt8], function: Function) -> [UInt8]? {
        let secret = Array(password.utf8)
        var out = [UInt8](repeating: 0, count: hashByteCount)
        let status: Int32 = secret.withUnsafeBufferPointer { pass in
            salt.withUnsafeBufferPointer { salt in
                out.withUnsafeMutableBufferPointer { key in
                    let passBytes = UnsafeRawPointer(pass.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                        .assumingMemoryBound(to: CChar.self)
                    switch function {
                    case .scrypt(let n, let r, let p):
                        // scrypt needs 128·N·r·p bytes; allow twice that.
                        return EVP_PBE_scrypt(
                            passBytes, pass.count, salt.baseAddress, salt.count, n, r, p, 256 * n * r * p,
                            key.baseAddress, key.count)
                    case .pbkdf2(let iterations):
                        return PKCS5_PBKDF2_HMAC(
                            passBytes, Int32(pass.count), salt.baseAddress, Int32(salt.count), Int32(iterations),
                            EVP_sha256(), Int32(key.count), key.baseAddress)
                    }
                }
            }
        }
        return status == 1 ? out : nil
    }
}

/// Random bytes and constant-time comparison from OpenSSL.
package enum SecureRandom {
    /// `count` bytes from `RAND_bytes`, or nil when OpenSSL has no entropy.
    package static func bytes(_ count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        let status = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        return status == 1 ? out : nil
    }

    /// A random 256-bit token in unpadded base64url (43 characters).
    package static func token() -> String? {
        bytes(32).map { Base64URL.encode($0) }
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) }
        }
            == 0
    }
}
