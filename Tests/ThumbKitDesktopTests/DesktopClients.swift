import Foundation
import Testing
import ThumbKitTestSupport

/// The desktop's own programs, run as child processes: GIO's `gio`, and `/usr/bin/python3` with
/// PyGObject (GLib, GnomeDesktop). A test that needs one calls `require…` first: when it is
/// missing the test prints a visible NOTICE and skips, except under `CI=true`, where that is a
/// failure (CI must never pass by skipping).
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

    /// The first of `/usr/bin/gio` or `/bin/gio` that exists.
    static var gio: String? {
        ["/usr/bin/gio", "/bin/gio"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func skip(_ what: String, sourceLocation: SourceLocation) -> Bool {
        let message = "\(what); skipping"
        print("NOTICE: \(message)")
        if ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" {
            Issue.record("CI=true but \(message)", sourceLocation: sourceLocation)
        }
        return false
    }

    /// True when `gio` (libglib2.0-bin) is installed.
    static func requireGIO(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        gio != nil ? true : skip("gio (libglib2.0-bin) not installed", sourceLocation: sourceLocation)
    }

    /// True when `/usr/bin/python3` can import `module` through PyGObject (for example
    /// `GLib` or `GnomeDesktop` at `version`).
    static func requireGI(
        _ module: String, version: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let program = "import gi; gi.require_version('\(module)', '\(version)'); from gi.repository import \(module)"
        if FileManager.default.isExecutableFile(atPath: python), let out = try? run(python, ["-c", program]),
            out.status == 0
        {
            return true
        }
        return skip(
            "\(python) cannot import gi.repository.\(module) \(version) (python3-gi and its typelib)",
            sourceLocation: sourceLocation)
    }
}
