// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitTestSupport

@testable import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// The built `thumbkit` binary, run as a child process with `--json` event lines collected from
/// its stderr as they arrive. Waits poll every 20 ms up to a deadline; nothing sleeps blindly.
final class WatchProcess: Sendable {
    /// `thumbkit` next to the test bundle (`.build/<triple>/<config>/`), where `swift build`
    /// and `swift test` put every product.
    static var binary: URL { TestBinary.thumbkit }

    private let process: Process
    private let stderrText = TextBuffer()
    private let stdoutText = TextBuffer()
    private let drained = DispatchGroup()

    /// Starts `thumbkit <arguments>` in `directory`.
    init(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws {
        let binary = Self.binary
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "\(binary.path) is missing: run `swift build` before the tests")
        process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errPipe = Pipe()
        let outPipe = Pipe()
        process.standardError = errPipe
        process.standardOutput = outPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        collect(errPipe.fileHandleForReading, into: stderrText)
        collect(outPipe.fileHandleForReading, into: stdoutText)
    }

    /// Reads `handle` to its end on a thread of its own: a blocking read on a shared dispatch
    /// queue can wait for a free worker thread while the whole suite runs, and the child's
    /// output was then not read by the time it had exited.
    private func collect(_ handle: FileHandle, into buffer: TextBuffer) {
        drained.enter()
        let group = drained
        let reader = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                buffer.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            group.leave()
        }
        reader.start()
    }

    /// The child's pid.
    var pid: Int32 { process.processIdentifier }

    /// Everything written to stderr so far.
    var stderr: String { stderrText.text.withLock { $0 } }

    /// Everything written to stdout so far.
    var stdout: String { stdoutText.text.withLock { $0 } }

    /// The JSON event lines on stderr so far (other lines are skipped).
    var events: [IngestEvent] {
        stderr.split(separator: "\n").compactMap { line in
            try? JSONDecoder().decode(IngestEvent.self, from: Data(line.utf8))
        }
    }

    /// Paths with at least one event of `kind`.
    func paths(_ kind: IngestEvent.Kind) -> Set<String> {
        Set(events.filter { $0.event == kind }.compactMap(\.path))
    }

    /// Polls until `condition` holds or `timeout` seconds pass; returns whether it held.
    @discardableResult
    func wait(timeout: Double = 30, until condition: (WatchProcess) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            if !process.isRunning { return condition(self) }
            usleep(20_000)
        }
        return condition(self)
    }

    /// Waits for the `watching` line: the watches are in place from then on.
    func waitUntilWatching() -> Bool {
        wait(timeout: 20) { $0.events.contains { $0.event == .watching } }
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to exit; its status (the signal number when killed by one), or nil
    /// after `timeout` seconds (the child is then killed).
    func exitStatus(timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        _ = drained.wait(timeout: .now() + 30)
        return process.terminationStatus
    }

    /// Whether the child was ended by a signal.
    var wasKilledBySignal: Bool { process.terminationReason == .uncaughtSignal }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Text read from a pipe, shared with the thread that reads it.
private final class TextBuffer: Sendable {
    let text = Locked("")
}
