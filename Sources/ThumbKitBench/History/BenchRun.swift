// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One benchmark session: when, on which commit and machine. Its measurements are `BenchResult`s.
package struct BenchRun: Sendable, Hashable, Codable, Identifiable {
    /// Row id.
    package let id: Int
    /// When the run started.
    package var date: Date
    /// The git commit measured (`git rev-parse HEAD`), or an empty string.
    package var gitCommit: String
    /// A description of the machine (CPU, cores, OS).
    package var machine: String
    /// Free-form note.
    package var note: String

    package init(id: Int, date: Date, gitCommit: String, machine: String, note: String = "") {
        self.id = id
        self.date = date
        self.gitCommit = gitCommit
        self.machine = machine
        self.note = note
    }
}
