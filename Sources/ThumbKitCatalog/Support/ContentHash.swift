// SPDX-License-Identifier: Apache-2.0
import CCrypto
import Foundation
import ThumbKit

/// SHA-256 content hashes (lower-case hex), computed with OpenSSL's libcrypto EVP API.
/// The catalog keys every output by its source's hash, so a changed image is rebuilt even if its
/// path stays the same.
public enum ContentHash {
    /// Bytes read from a file per update when hashing it (1 MiB).
    public static let chunkSize = 1 << 20

    /// The SHA-256 of `bytes` as 64 lower-case hex digits.
    public static func sha256(of bytes: [UInt8]) -> String {
        let digest = Digest()
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finish()
    }

    /// The SHA-256 of the file at `path`, read in `chunkSize` pieces so memory stays flat for
    /// any file size.
    ///
    /// - Throws: `CatalogError.io` naming the file when it cannot be opened or read.
    public static func sha256(ofFileAt path: String) throws(CatalogError) -> String {
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw CatalogError.io(path: path, reason: errnoReason("cannot open")) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw CatalogError.io(path: path, reason: "is a folder, not a file")
        }
        let digest = Digest()
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CatalogError.io(path: path, reason: errnoReason("cannot read"))
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        return digest.finish()
    }

    static func errnoReason(_ action: String) -> String {
        "\(action): \(String(cString: strerror(errno)).lowercased())"
    }

    /// One EVP SHA-256 context, freed when the value goes away.
    private final class Digest {
        private let context: OpaquePointer

        init() {
            guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
            // Initialising SHA-256 on a fresh context cannot fail short of a broken libcrypto.
            precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "EVP_DigestInit_ex failed.")
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "EVP_DigestUpdate failed.")
        }

        func finish() -> String {
            var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, &out, &length) == 1, "EVP_DigestFinal_ex failed.")
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            var text = [UInt8]()
            text.reserveCapacity(Int(length) * 2)
            for byte in out[0..<Int(length)] {
                text.append(hex[Int(byte >> 4)])
                text.append(hex[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
