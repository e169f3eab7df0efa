// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// Where the programs the benchmark starts live, beyond those looked up on PATH.
package struct BenchPrograms: Sendable, Hashable {
    /// The `thumbkit` executable to time (normally the one running).
    package var thumbkit: String
    /// The Python that has Pillow (Debian's `/usr/bin/python3` with `python3-pil`).
    package var python: String
    /// `scripts/peers/pillow_thumb.py` (`bench --pillow-script`, else
    /// ``defaultPillowScript(executable:)``), or nil when it cannot be found.
    package var pillowScript: String?

    package init(thumbkit: String, python: String = "/usr/bin/python3", pillowScript: String? = nil) {
        self.thumbkit = thumbkit
        self.python = python
        self.pillowScript = pillowScript
    }

    /// The script's place inside a ThumbKit checkout.
    package static let pillowScriptPath = "scripts/peers/pillow_thumb.py"

    /// Where `bench` looks for the Pillow script when `--pillow-script` is not given, in order,
    /// relative to the folder of `executable` (the running `thumbkit`, symlinks resolved):
    /// `../share/thumbkit/pillow_thumb.py` (an installed layout: `/usr/local/bin/thumbkit` and
    /// `/usr/local/share/thumbkit/`), then `../../../scripts/peers/pillow_thumb.py` (a SwiftPM
    /// build: `<checkout>/.build/<triple>/<configuration>/thumbkit`). Two fixed places, not a
    /// search: nothing depends on the current folder.
    package static func defaultPillowScriptCandidates(executable: String) -> [String] {
        let folder = (executable as NSString).deletingLastPathComponent
        return [
            (folder as NSString).appendingPathComponent("../share/thumbkit/pillow_thumb.py"),
            (folder as NSString).appendingPathComponent("../../../" + pillowScriptPath),
        ].map { ($0 as NSString).standardizingPath }
    }

    /// The first of ``defaultPillowScriptCandidates(executable:)`` that can be read, or nil.
    package static func defaultPillowScript(executable: String) -> String? {
        defaultPillowScriptCandidates(executable: executable).first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The absolute path of the running executable (`/proc/self/exe`), else `argv[0]`.
    package static func currentExecutable() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return CommandLine.arguments.first ?? "thumbkit"
    }
}
