// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

/// The desktop's own programs, run as child processes: GIO's `gio`, and `/usr/bin/python3` with
/// PyGObject (GLib, GnomeDesktop). A test that needs one carries `.needs(…)` with the
/// requirements below and calls `ToolRequirement.require` first: without them it shows as
/// skipped, and under `CI=true` it fails (CI must never pass by skipping).
enum DesktopClients {
    typealias Output = TestBinary.Run

    static let python = "/usr/bin/python3"

    /// Runs `executable arguments…` with `environment` added to this process's environment.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        try TestBinary.run(
            executable: URL(fileURLWithPath: executable), arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// Runs a Python program with `/usr/bin/python3`; `argv[1…]` are `arguments`.
    static func python(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        try run(python, ["-c", program] + arguments, environment: environment)
    }

    /// `gio` on PATH (or in /usr/bin).
    static var gio: String? { ToolRequirement.find("gio") }

    /// GIO's command-line client.
    static let gioTool = ToolRequirement.program("gio")
    /// `/usr/bin/python3` with PyGObject's GLib.
    static let glib = ToolRequirement.python(gi: "GLib", version: "2.0", package: "python3-gi")
    /// `/usr/bin/python3` with gnome-desktop's typelib.
    static let gnomeDesktop = ToolRequirement.python(
        gi: "GnomeDesktop", version: "3.0", package: "gir1.2-gnomedesktop-3.0")
}
