// SPDX-License-Identifier: Apache-2.0
/// One worker's share of a batch split across `count` workers (`thumb --shard K/N`): the inputs
/// whose key hashes to `index` modulo `count`. The key is an input's output path below the
/// template's output folder (`a/b.jpg`), shared by inputs that meet (see `BatchPlan`), and the
/// hash is FNV-1a 64 of its bytes, so every host and every run splits the same inputs the same
/// way wherever the trees are mounted. The `count` shards of one batch are pairwise disjoint and
/// together hold exactly the unsharded batch.
///
/// The index is 0-based, as Kubernetes' `JOB_COMPLETION_INDEX`; ThumbKit never reads that or
/// any other environment variable: the caller passes `--shard $JOB_COMPLETION_INDEX/N`.
package struct BatchShard: Sendable, Hashable, CustomStringConvertible {
    /// This worker's share, 0 ..< `count`.
    package let index: Int
    /// How many workers share the batch (at least 1).
    package let count: Int

    /// Shard `index` of `count`; nil unless 0 ≤ `index` < `count`.
    package init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// The shard `text` names, `K/N` in ASCII digits (`0/4`); nil for anything else (a
    /// missing slash, a sign, K ≥ N, N = 0, a number too large).
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { return nil }
        self.init(index: index, count: count)
    }

    /// `K/N`.
    package var description: String { "\(index)/\(count)" }

    /// Whether the input with this key (see the type's comment) is in this shard.
    package func contains(key: String) -> Bool {
        Self.fnv1a64(PathBytes.bytes(key)) % UInt64(count) == UInt64(index)
    }

    /// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
    package static func fnv1a64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        FNV1a.hash64(bytes)
    }
}
