// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 3: what each benchmark result measured, so the history compares only like with
    /// like: the corpus digest (file names, sizes and content hashes), the images per run and
    /// the number of timed runs. Additive: results saved before it read as unknown (empty
    /// digest, 0), which are comparable with no other result.
    static let migration3 = """
        ALTER TABLE bench_results ADD COLUMN corpus_digest TEXT NOT NULL DEFAULT '';
        ALTER TABLE bench_results ADD COLUMN images INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE bench_results ADD COLUMN timed_runs INTEGER NOT NULL DEFAULT 0;
        """
}
