// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A file a watch folder has seen, keyed by (path, sha256) so a changed file is seen again.
public struct IngestedFile: Sendable, Hashable, Codable, Identifiable {
    /// What became of the file.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Seen, not yet handled.
        case pending
        /// Turned into (or attached to) a record.
        case imported
        /// Deliberately left alone (not an image, a temp file).
        case skipped
        /// Handling failed; `reason` says why.
        case failed
    }

    /// Row id.
    public let id: Int
    /// The file's path.
    public var path: String
    /// SHA-256 of its bytes.
    public var sha256: String
    /// The record it became, if any.
    public var record: RecordRef?
    /// What became of it.
    public var status: Status
    /// Why it failed or was skipped ("" otherwise).
    public var reason: String
    /// When it was last handled.
    public var processedAt: Date

    public init(
        id: Int, path: String, sha256: String, record: RecordRef?, status: Status, reason: String,
        processedAt: Date
    ) {
        self.id = id
        self.path = path
        self.sha256 = sha256
        self.record = record
        self.status = status
        self.reason = reason
        self.processedAt = processedAt
    }
}
