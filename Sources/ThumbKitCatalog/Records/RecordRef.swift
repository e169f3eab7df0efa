// SPDX-License-Identifier: Apache-2.0
/// Names one record: its kind and row id. Prints as `bug 3`.
public struct RecordRef: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The record's kind.
    public let kind: RecordKind
    /// The record's row id (0 for `.app`).
    public let id: Int

    public init(kind: RecordKind, id: Int) {
        self.kind = kind
        self.id = id
    }

    /// The bug with row id `id`.
    public static func bug(_ id: Int) -> RecordRef { RecordRef(kind: .bug, id: id) }
    /// The food with row id `id`.
    public static func food(_ id: Int) -> RecordRef { RecordRef(kind: .food, id: id) }
    /// The app (for app icons).
    public static let app = RecordRef(kind: .app, id: 0)

    /// `bug 3`, `food 12`, `app 0`.
    public var description: String { "\(kind.rawValue) \(id)" }
}
