// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Options that many commands declare alike: `--json` and `-j N`.
enum CommonOptions {
    /// `--json`: commands that have it print one JSON document on stdout
    /// (see ``CommandContext/writeJSON(_:)``) and nothing else there.
    static let json: OptionKey<Bool> = .flag("json", help: "Print the result as JSON on stdout.")

    /// `-j N` (1 to 256), the processors available when absent; `help` says what runs in parallel.
    static func jobs(_ help: String) -> OptionKey<Int> {
        OptionKey<Int?>.integer("jobs", short: "j", in: 1...256, defaultHelp: "active processors", help: help)
            .map { $0 ?? ProcessInfo.processInfo.activeProcessorCount }
    }
}
