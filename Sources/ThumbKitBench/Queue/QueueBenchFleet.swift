// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `thumbkit worker` processes of one queue bench run: started together, paused while the
/// bench queues the records (SIGSTOP, SIGCONT), and stopped as an operator stops them
/// (SIGTERM: the records in hand are finished, the summary and `queue-stats` are written).
/// Each worker's stderr is read on a thread of its own into `events`; stdout (its summary) is
/// drained and dropped.
final class QueueBenchFleet {
    let events = QueueBenchEvents()
    private let processes: [Process]

    /// Starts `count` workers: `executable arguments…` each.
    init(executable: String, arguments: [String], count: Int) throws {
        var processes: [Process] = []
        for index in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            let (out, err) = (Pipe(), Pipe())
            process.standardOutput = out
            process.standardError = err
            do {
                try process.run()
            } catch {
                processes.forEach { $0.terminate() }
                throw BenchError.queue(subject: executable, reason: "cannot start a worker: \(error)")
            }
            processes.append(process)
            let events = self.events
            Thread.detachNewThread { Self.readLines(err.fileHandleForReading, index: index, into: events) }
            Thread.detachNewThread { _ = out.fileHandleForReading.readDataToEndOfFile() }
        }
        self.processes = processes
    }

    /// Reads `handle` to its end, one line at a time, into `events`.
    private static func readLines(_ handle: FileHandle, index: Int, into events: QueueBenchEvents) {
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if !line.isEmpty { events.take(Substring(line), from: index) }
            }
        }
        if !pending.isEmpty { events.take(Substring(String(decoding: pending, as: UTF8.self)), from: index) }
        events.end(index)
    }

    var count: Int { processes.count }

    /// Sends `number` to every worker still running.
    func signal(_ number: Int32) {
        for process in processes where process.isRunning { kill(process.processIdentifier, number) }
    }

    /// SIGTERM to every worker (after SIGCONT, in case they are paused), then waits for them
    /// to end; those still running after `grace` are killed.
    func stop(grace: TimeInterval = 60) {
        signal(SIGCONT)
        signal(SIGTERM)
        if !events.waitEnded(processes.count, until: Date().addingTimeInterval(grace)) {
            signal(SIGKILL)
        }
        processes.forEach { $0.waitUntilExit() }
    }

    /// Exit statuses of the workers that have exited with a failure.
    var failures: [Int32] {
        processes.filter { !$0.isRunning && $0.terminationStatus != 0 }.map(\.terminationStatus)
    }
}
