// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// MD5 through OpenSSL's EVP interface: the thumbnail cache names each file by the MD5 of its
/// source's URI (a name, not a security property).
enum MD5 {
    /// The lower-case hex MD5 of `bytes` (32 characters).
    static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBufferPointer { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_md5(), nil)
        }
        precondition(ok == 1 && length == 16, "EVP_Digest(MD5) failed.")
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest.prefix(16) { out += [hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// The lower-case hex MD5 of the UTF-8 bytes of `text`.
    static func hex(_ text: String) -> String { hex(Array(text.utf8)) }
}
