// SPDX-License-Identifier: Apache-2.0
/// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a small, stable,
/// non-cryptographic hash, the same on every host and in every run. It keys caches, shards,
/// advisory locks and host tags; nothing trusts it for integrity.
package enum FNV1a {
    /// The 64-bit FNV-1a hash of `bytes`.
    package static func hash64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
