// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

struct BenchRunnerTests {
    /// An entry whose one process appends its tool name and the number of files it found in its
    /// output folder to `log`, then writes one output there.
    private func recordingEntry(_ tool: String, log: String) -> BenchRunner.Entry {
        BenchRunner.Entry(key: "job/jpeg", tool: tool) { output in
            let script = "echo $0 $(ls -A \"$2\" | wc -l) >> \"$1\"; touch \"$2/out.jpg\""
            return BenchWorkload(invocations: [BenchInvocation(["/bin/sh", "-c", script, tool, log, output])])
        }
    }

    @Test func toolsTakeTurnsRoundByRoundEachInAFreshFolderAfterAnUntimedWarmUp() throws {
        let workspace = try TestWorkspace()
        let log = workspace.path("order.log")
        let runner = BenchRunner(runs: 2, warmupRuns: 1, workFolder: workspace.path("work"))
        var announced: [String] = []
        let timings = runner.run([[recordingEntry("a", log: log), recordingEntry("b", log: log)]]) {
            done, total, entry in
            announced.append("\(done)/\(total) \(entry.tool)")
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["a 0", "b 0", "a 0", "b 0", "a 0", "b 0"])
        #expect(announced == ["0/6 a", "1/6 b", "2/6 a", "3/6 b", "4/6 a", "5/6 b"])
        #expect(timings.map(\.tool) == ["a", "b"])
        #expect(timings.allSatisfy { $0.runs.count == 2 && $0.failures.isEmpty && $0.failureLog == nil })
        // Only the last run's folder (and its log) is left, with its output in it.
        let kept = try FileManager.default.contentsOfDirectory(atPath: workspace.path("work/job-jpeg/a")).sorted()
        #expect(kept == ["run-2", "run-2.log"])
        #expect(timings[0].outputFolder == workspace.path("work/job-jpeg/a/run-2"))
        #expect(FileManager.default.fileExists(atPath: timings[0].outputFolder + "/out.jpg"))
    }

    @Test func groupsRunOneAfterAnotherAndKeepTheirOwnTimings() throws {
        let workspace = try TestWorkspace()
        let log = workspace.path("order.log")
        func entry(_ key: String, _ tool: String) -> BenchRunner.Entry {
            BenchRunner.Entry(key: key, tool: tool) { _ in
                BenchWorkload(invocations: [
                    BenchInvocation(["/bin/sh", "-c", "echo $0 >> \"$1\"", "\(key):\(tool)", log])
                ])
            }
        }
        let runner = BenchRunner(runs: 1, warmupRuns: 0, workFolder: workspace.path("work"))
        let timings = runner.run([[entry("x", "a"), entry("x", "b")], [entry("y", "a")]])
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["x:a", "x:b", "y:a"])
        #expect(timings.map { "\($0.key):\($0.tool)" } == ["x:a", "x:b", "y:a"])
    }

    @Test func aFailingProcessIsRecordedWithItsCommandLineAndItsOutput() throws {
        let workspace = try TestWorkspace()
        let entry = BenchRunner.Entry(key: "job/png", tool: "broken") { _ in
            BenchWorkload(invocations: [BenchInvocation(["/bin/sh", "-c", "echo cannot read >&2; exit 3"])])
        }
        let timing = try #require(BenchRunner(runs: 2, workFolder: workspace.path("work")).run([[entry]]).first)
        #expect(timing.runs.count == 2)
        #expect(timing.failures == ["exit status 3: /bin/sh -c 'echo cannot read >&2; exit 3'"])
        #expect(timing.failureLog?.contains("cannot read") == true)
    }

    @Test func eachRunIsPreparedBeforeItsProcessesStartAndCheckedAfterTheyEnd() throws {
        let workspace = try TestWorkspace()
        // The process sees what the preparation put in its fresh folder, and leaves a line in
        // the log for the check to read.
        let entry = BenchRunner.Entry(
            key: "job/demo", tool: "t",
            prepare: { output in try Data("ready\n".utf8).write(to: URL(fileURLWithPath: output + "/input")) },
            verify: { output, log in
                FileManager.default.fileExists(atPath: output + "/input") && log == "ready\n" ? [] : ["bad: \(log)"]
            }
        ) { output in
            BenchWorkload(invocations: [BenchInvocation(["/bin/cat", output + "/input"])])
        }
        let timing = try #require(BenchRunner(runs: 2, workFolder: workspace.path("work")).run([[entry]]).first)
        #expect(timing.runs.count == 2 && timing.failures.isEmpty)

        let checked = BenchRunner.Entry(key: "job/demo", tool: "t", verify: { _, log in ["saw \(log.count) bytes"] }) {
            _ in BenchWorkload(invocations: [BenchInvocation(["/bin/echo", "hi"])])
        }
        let flagged = try #require(BenchRunner(runs: 1, workFolder: workspace.path("w2")).run([[checked]]).first)
        #expect(flagged.failures == ["saw 3 bytes"])
    }

    @Test func aRunWhosePreparationFailsIsAFailureAndStartsNothing() throws {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "no catalog" }
        }
        let workspace = try TestWorkspace()
        let marker = workspace.path("started")
        let entry = BenchRunner.Entry(key: "job/demo", tool: "t", prepare: { _ in throw Refused() }) { _ in
            BenchWorkload(invocations: [BenchInvocation(["/usr/bin/touch", marker])])
        }
        let timing = try #require(BenchRunner(runs: 2, workFolder: workspace.path("work")).run([[entry]]).first)
        #expect(timing.runs.count == 2)
        #expect(timing.failures == ["cannot prepare the run: no catalog"])
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func aProgramThatCannotStartIsAFailureNotACrash() {
        let workload = BenchWorkload(invocations: [BenchInvocation(["/nonexistent/thumbnailer", "a.jpg"])])
        let measurement = workload.run()
        #expect(!measurement.succeeded)
        #expect(measurement.failures.first?.hasPrefix("/nonexistent/thumbnailer: cannot start") == true)
    }

    @Test func processesOfOneWorkloadRunAtTheSameTimeInTheirLanes() throws {
        // A FIFO rendezvous: opening it to write blocks until a reader opens it, and the other
        // way round, so each process waits (up to 10 s, then `timeout` fails it) for the other.
        // Run one after the other, the first would give up and fail.
        let workspace = try TestWorkspace()
        let fifo = workspace.path("meet")
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        let meet = { (redirect: String) in
            BenchInvocation(["/usr/bin/timeout", "10", "/bin/sh", "-c", ": \(redirect) \"$0\"", fifo])
        }
        let workload = BenchWorkload(invocations: [meet(">"), meet("<")], lanes: 2)
        let measurement = workload.run()
        #expect(measurement.failures.isEmpty, "\(measurement.failures)")
    }

    @Test func aProcessCanRunInsideAFolder() throws {
        let workspace = try TestWorkspace()
        let folder = workspace.path("set folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let output = workspace.path("pwd.txt")
        let measurement = try ProcessTimer.run(["pwd"], outputPath: output, workingDirectory: folder)
        #expect(measurement.exitStatus == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == folder + "\n")
    }

    @Test func aChildStartsWithNoSignalBlocked() throws {
        // Foundation's threads block most signals; a spawned tool must not inherit that mask
        // (Pillow's multiprocessing pool hangs with it).
        let workspace = try TestWorkspace()
        let output = workspace.path("status.txt")
        let workload = BenchWorkload(
            invocations: [BenchInvocation(["/bin/sh", "-c", "grep SigBlk /proc/self/status > \"$0\"", output])])
        #expect(workload.run().succeeded)
        let line = try String(contentsOfFile: output, encoding: .utf8)
        #expect(line.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
    }
}
