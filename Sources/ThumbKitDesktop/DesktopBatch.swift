// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import ThumbKit

/// Runs a `DesktopThumbnailer` over many files on `jobs` workers, largest file first (so a big
/// file does not start last and keep one worker busy alone), and tallies the outcomes.
public struct DesktopBatch: Sendable {
    /// The per-file work.
    public var thumbnailer: DesktopThumbnailer
    /// Parallel workers (≥ 1).
    public var jobs: Int

    /// A batch of `thumbnailer` on `jobs` workers.
    public init(thumbnailer: DesktopThumbnailer, jobs: Int) {
        self.thumbnailer = thumbnailer
        self.jobs = max(1, jobs)
    }

    /// One file's result.
    public struct Item: Sendable, Hashable, Codable {
        /// The path as given.
        public var input: String
        /// `written`, `up-to-date`, `known-failure` or `failed`.
        public var status: String
        /// The sizes written (`written` only).
        public var sizes: [ThumbnailSize]
        /// The failure line (`failed` only).
        public var error: String?
    }

    /// The tally of a batch.
    public struct Report: Sendable, Hashable, Codable {
        /// Every file, in the order given.
        public var items: [Item]
        /// Files decoded (one decode each, whatever the number of sizes).
        public var decoded: Int
        /// Thumbnails written.
        public var thumbnailsWritten: Int
        /// Files whose thumbnails were all valid already.
        public var upToDate: Int
        /// Files skipped because ThumbKit's failure entry for their mtime exists.
        public var knownFailures: Int
        /// Files that failed in this run.
        public var failed: Int
        /// Wall time in seconds.
        public var wallSeconds: Double
    }

    /// Processes `files`; `onItem` is called from worker threads with each finished item.
    public func run(_ files: [String], onItem: (@Sendable (Item) -> Void)? = nil) -> Report {
        let start = DispatchTime.now().uptimeNanoseconds
        let sizes = files.map { path -> Int in
            var st = stat()
            return PathBytes.withCString(path, { stat($0, &st) }) == 0 ? Int(st.st_size) : 0
        }
        let order = files.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
        let results = Locked<[Item?]>(Array(repeating: nil, count: files.count))
        let thumbnailer = self.thumbnailer
        WorkQueue.forEach(files.count, workers: jobs, order: order) { index in
            let item = Self.item(files[index], thumbnailer.process(files[index]))
            results.withLock { $0[index] = item }
            onItem?(item)
        }
        let items = results.withLock { $0.compactMap { $0 } }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Report(
            items: items, decoded: items.filter { $0.status == "written" }.count,
            thumbnailsWritten: items.map(\.sizes.count).reduce(0, +),
            upToDate: items.filter { $0.status == "up-to-date" }.count,
            knownFailures: items.filter { $0.status == "known-failure" }.count,
            failed: items.filter { $0.status == "failed" }.count, wallSeconds: seconds)
    }

    static func item(_ input: String, _ outcome: DesktopThumbnailer.Outcome) -> Item {
        switch outcome {
        case .written(let sizes): return Item(input: input, status: "written", sizes: sizes, error: nil)
        case .upToDate: return Item(input: input, status: "up-to-date", sizes: [], error: nil)
        case .knownFailure: return Item(input: input, status: "known-failure", sizes: [], error: nil)
        case .failed(let message, _): return Item(input: input, status: "failed", sizes: [], error: message)
        }
    }
}
