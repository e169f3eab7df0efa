import Foundation
import Testing
import ThumbKitTestSupport

/// The desktop's own programs, run as child processes: GIO's `gio`, and `/usr/bin/python3` with
/// PyGObject (GLib, GnomeDesktop). A test that needs one calls `require…` first: when it is
/// missing the test prints a visible NOTICE and skips, except under `CI=true`, where that is a
/// failure (CI must never pass by skipping).
enum DesktopClients {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let python = "/usr/bin/python3"

    /// Runs `executable arguments…` with `environment` added to this process's environment.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Each variable is written by one block and read after group.wait(): no data race.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
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
