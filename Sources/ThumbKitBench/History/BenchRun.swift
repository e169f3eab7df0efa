import Foundation

/// One benchmark session: when, on which commit and machine. Its measurements are `BenchResult`s.
public struct BenchRun: Sendable, Hashable, Codable, Identifiable {
    /// Row id.
    public let id: Int
    /// When the run started.
    public var date: Date
    /// The git commit measured (`git rev-parse HEAD`), or an empty string.
    public var gitCommit: String
    /// A description of the machine (CPU, cores, OS).
    public var machine: String
    /// Free-form note.
    public var note: String

    public init(id: Int, date: Date, gitCommit: String, machine: String, note: String = "") {
        self.id = id
        self.date = date
        self.gitCommit = gitCommit
        self.machine = machine
        self.note = note
    }
}
