// SPDX-License-Identifier: Apache-2.0
/// The kinds of record an output can belong to (the `outputs.record_kind` column).
public enum RecordKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A bug, keyed by title.
    case bug
    /// A food, keyed by (category, name).
    case food
    /// The app itself (app icons); its record id is 0.
    case app

    /// The folder its outputs go in, below the output folder: `bugs`, `foods` or `app`.
    public var folderName: String {
        switch self {
        case .bug: return "bugs"
        case .food: return "foods"
        case .app: return "app"
        }
    }
}
