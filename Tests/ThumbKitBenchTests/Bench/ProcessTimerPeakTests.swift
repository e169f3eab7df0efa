// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

/// The peak resident set is the command's own, not the bench's: a child spawned by a process
/// that holds a lot of memory used to report that process's high-water mark (vfork + exec).
///
/// GNU time (TEST_PACKAGES) is the meter: without it these tests show as skipped, and fail
/// under CI=true.
struct ProcessTimerPeakTests {
    static let gnuTime = ToolRequirement.program("/usr/bin/time", package: "time")

    /// GNU time is there and works as the meter (a recorded failure under CI=true otherwise).
    private static func requireMeter(_ more: [ToolRequirement] = []) throws -> Bool {
        guard ToolRequirement.require([gnuTime] + more) else { return false }
        try #require(ProcessTimer.peakMeter != nil, "/usr/bin/time is installed but does not run as the meter")
        return true
    }
    /// Touches `mebibytes` MiB in this process, so its high-water mark is at least that.
    private func holdMemory(_ mebibytes: Int) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: mebibytes << 20)
        for index in stride(from: 0, to: block.count, by: 4096) { block[index] = 1 }
        return block
    }

    @Test(.needs(gnuTime)) func aSmallCommandSpawnedByALargeProcessReportsItsOwnSmallPeak() throws {
        guard try Self.requireMeter() else { return }
        let held = holdMemory(200)
        let measurement = try ProcessTimer.run(["/bin/sh", "-c", ":"])
        #expect(held.count == 200 << 20)
        #expect(measurement.exitStatus == 0)
        #expect(measurement.peakRSSBytes > 0)
        #expect(measurement.peakRSSBytes < 32 << 20, "got \(measurement.peakRSSBytes) bytes")
    }

    @Test(.needs(gnuTime, .program("python3"))) func aCommandThatUsesMemoryReportsThatPeak() throws {
        guard try Self.requireMeter([.program("python3")]) else { return }
        let measurement = try ProcessTimer.run([
            "python3", "-c", "b = bytearray(120 << 20); b[::4096] = b'x' * len(b[::4096])",
        ])
        #expect(measurement.exitStatus == 0)
        #expect(measurement.peakRSSBytes >= 120 << 20, "got \(measurement.peakRSSBytes) bytes")
        #expect(measurement.peakRSSBytes < 300 << 20, "got \(measurement.peakRSSBytes) bytes")
    }

    @Test(.needs(gnuTime)) func inAFolderTheShellThatChangesFolderDoesNotInflateThePeak() throws {
        guard try Self.requireMeter() else { return }
        let held = holdMemory(200)
        let measurement = try ProcessTimer.run(["true"], workingDirectory: "/")
        #expect(held.count == 200 << 20)
        #expect(measurement.peakRSSBytes > 0 && measurement.peakRSSBytes < 32 << 20)
    }

    @Test(.needs(gnuTime)) func exitStatusAndSignalsStillComeThroughTheMeter() throws {
        guard try Self.requireMeter() else { return }
        #expect(try ProcessTimer.run(["/bin/sh", "-c", "exit 3"]).exitStatus == 3)
        #expect(try ProcessTimer.run(["/bin/sh", "-c", "kill -9 $$"]).exitStatus == 137)
        #expect(throws: ProcessTimer.LaunchError.self) { try ProcessTimer.run(["thumbkit-no-such-tool"]) }
    }

    @Test func gnuTimesReportIsReadFromItsLastLine() throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("rss.txt")
        try "Command exited with non-zero status 3\n1584\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ProcessTimer.peakKibibytes(reportedIn: path) == 1584)
        #expect(ProcessTimer.peakKibibytes(reportedIn: workspace.path("none.txt")) == nil)
    }
}
