// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs the built `thumbkit` executable as a child process, for end-to-end tests.
///
/// `swift test` builds every product, so the executable sits next to the test bundle
/// (`.build/<configuration>/thumbkit`); the bundle's path is the test process's first argument.
public enum TestBinary {
    /// The result of one run.
    public struct Run: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        /// stderr split into lines, without empty ones.
        public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// The `thumbkit` executable next to the running test bundle.
    public static var thumbkit: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On some platforms the bundle is a directory tree (…/X.xctest/Contents/MacOS/X).
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("thumbkit").path),
            dir.pathComponents.count > 1
        {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("thumbkit")
    }

    /// Runs `thumbkit arguments…` to completion with no stdin and captures both outputs.
    public static func run(_ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil)
        throws -> Run
    {
        try run(executable: thumbkit, arguments, environment: environment, in: directory)
    }

    /// Runs any `executable arguments…` to completion with no stdin and captures both outputs
    /// (`environment` nil: this process's own).
    public static func run(
        executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the child runs so a full pipe can never block it, each on a
        // thread of its own: not on Dispatch's global queues, whose threads Swift's global pool
        // shares on Linux (a slow child then held both).
        let outData = Observed<Data?>(nil)
        let errData = Observed<Data?>(nil)
        for (pipe, data) in [(out, outData), (err, errData)] {
            Thread { data.update { $0 = pipe.fileHandleForReading.readDataToEndOfFile() } }.start()
        }
        process.waitUntilExit()
        // The pipes end when the child does (or its own children, which these tools have none of).
        _ = outData.wait(timeout: 60) { $0 != nil }
        _ = errData.wait(timeout: 60) { $0 != nil }
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData.value ?? Data(), as: UTF8.self),
            stderr: String(decoding: errData.value ?? Data(), as: UTF8.self))
    }

    /// A fresh empty temporary folder; remove it with `FileManager.removeItem` when done.
    public static func temporaryDirectory(_ label: String = "tk") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
