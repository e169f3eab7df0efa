// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// What an ingest changed, kept in its `pending` row of `ingested_files` (the row's `reason`,
/// as `undo {json}`) from the moment the record changes until its outputs are made. If the
/// build fails, or the watcher restarts after a crash and the file is gone, this is what puts
/// the record back as it was, even when the crash came in the middle of the first attempt.
struct IngestUndo: Sendable, Hashable, Codable {
    /// The record did not exist: undoing deletes it (with its outputs).
    var created: Bool
    /// The food's category did not exist either: undoing deletes it too if it is empty.
    var categoryCreated: Bool = false
    /// The record's image before (nil: it had none).
    var image: ImageRef?
    /// The bug's rating before, in stars.
    var rating: Double?

    /// The prefix that marks a pending row's reason as undo data.
    static let prefix = "undo "

    /// `undo {"created":false,…}`.
    var reasonText: String {
        Self.prefix + (JSONLine.string(self) ?? "{}")
    }

    /// The undo data in a pending row's reason, or nil when there is none.
    init?(reasonText: String) {
        guard reasonText.hasPrefix(Self.prefix),
            let value = try? JSONDecoder().decode(
                IngestUndo.self, from: Data(reasonText.dropFirst(Self.prefix.count).utf8))
        else { return nil }
        self = value
    }

    init(created: Bool, categoryCreated: Bool = false, image: ImageRef? = nil, rating: Double? = nil) {
        self.created = created
        self.categoryCreated = categoryCreated
        self.image = image
        self.rating = rating
    }
}
