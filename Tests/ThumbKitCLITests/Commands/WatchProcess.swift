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
/// its stderr as they arrive. A wait wakes on each piece of output the child writes (and looks
/// again every 20 ms, for conditions on what the output does not show), up to a deadline.
final class WatchProcess: Sendable {
    /// `thumbkit` next to the test bundle (`.build/<triple>/<config>/`), where `swift build`
    /// and `swift test` put every product.
    static var binary: URL { TestBinary.thumbkit }

    private let process: Process
    private let stderrText = Observed("")
    private let stdoutText = Observed("")
    private let drained = DispatchGroup()
    /// Signalled once the child has exited.
    private let exited = DispatchSemaphore(value: 0)

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
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        collect(errPipe.fileHandleForReading, into: stderrText)
        collect(outPipe.fileHandleForReading, into: stdoutText)
    }

    /// Reads `handle` to its end on a thread of its own: a blocking read on a shared dispatch
    /// queue can wait for a free worker thread while the whole suite runs, and the child's
    /// output was then not read by the time it had exited.
    private func collect(_ handle: FileHandle, into buffer: Observed<String>) {
        drained.enter()
        let group = drained
        let reader = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                buffer.update { $0 += String(decoding: data, as: UTF8.self) }
            }
            group.leave()
        }
        reader.start()
    }

    /// The child's pid.
    var pid: Int32 { process.processIdentifier }

    /// Everything written to stderr so far.
    var stderr: String { stderrText.value }

    /// Everything written to stdout so far.
    var stdout: String { stdoutText.value }

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

    /// Waits until `condition` holds, the child has exited, or `timeout` seconds pass; whether
    /// it held. It is looked at after each piece of stderr, and every 20 ms for what stderr does
    /// not show (a catalog's rows).
    @discardableResult
    func wait(timeout: Double = 30, until condition: (WatchProcess) -> Bool) -> Bool {
        _ = stderrText.wait(timeout: timeout, recheck: 0.02) { condition(self) || !process.isRunning }
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
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        exited.signal()  // For the next call: the child stays exited.
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
