// SPDX-License-Identifier: Apache-2.0
/// The program's name and version, printed by `thumbkit --version` as `thumbkit 0.2.0`.
enum VersionInfo {
    /// The executable's name, used as the prefix of every message (`thumbkit: error: …`).
    static let programName = "thumbkit"
    /// Semantic version of the command-line interface and library.
    static let version = "0.2.0"
    /// `thumbkit 0.2.0`: the whole `--version` output (without newline).
    static var versionLine: String { "\(programName) \(version)" }
}
