// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command as a child process and measures it the way the kernel accounts it: wall
/// time, user and system CPU time of the child and everything it waited for, and the peak
/// resident set of the command's largest process.
///
/// The peak resident set cannot be read from our own `wait4`: `posix_spawn` starts the child
/// with `vfork`, so it shares the bench's address space until it execs, and Linux carries the
/// high-water mark of that shared (large) address space into the child's `ru_maxrss` at exec.
/// Every small tool then showed the bench's own peak (about 51 MiB). The command is therefore
/// started through GNU time (``peakMeter``, `/usr/bin/time -f %M`), a small process that
/// `fork`s and `exec`s it and reports the command's own `ru_maxrss` (its floor is time's own
/// resident set, about 1 MiB). Without GNU time the peak is unknown and reported as 0.
package enum ProcessTimer {
    /// One finished run.
    package struct Measurement: Sendable, Hashable, Codable {
        package init(
            wallSeconds: Double, userSeconds: Double, systemSeconds: Double, peakRSSBytes: Int, exitStatus: Int32
        ) {
            self.wallSeconds = wallSeconds
            self.userSeconds = userSeconds
            self.systemSeconds = systemSeconds
            self.peakRSSBytes = peakRSSBytes
            self.exitStatus = exitStatus
        }

        package var wallSeconds: Double
        package var userSeconds: Double
        package var systemSeconds: Double
        /// The command's own peak resident set (0 when unknown: see ``ProcessTimer``).
        package var peakRSSBytes: Int
        package var exitStatus: Int32

        package var cpuSeconds: Double { userSeconds + systemSeconds }
    }

    /// Why a command could not be run.
    package struct LaunchError: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// GNU time, when it is installed and answers `-f %M -o FILE` (package `time`).
    package static let peakMeter: String? = {
        let candidate = "/usr/bin/time"
        guard access(candidate, X_OK) == 0,
            let check = try? spawnAndWait([candidate, "-f", "%M", "-o", "/dev/null", "/bin/true"], sink: "/dev/null"),
            check.exitStatus == 0
        else { return nil }
        return candidate
    }()

    /// Runs `arguments` (the first is looked up on PATH) with stdout and stderr sent to
    /// `outputPath` (or /dev/null), and waits for it.
    ///
    /// With `workingDirectory`, the command runs there: it is started as
    /// `/bin/sh -c 'cd -- "$0" && exec "$@"' DIR ARGS…`, so the measured process is the command
    /// itself once the shell has replaced itself (glibc's `posix_spawn_file_actions_addchdir_np`
    /// is not visible to Swift).
    package static func run(
        _ arguments: [String], outputPath: String? = nil, environment: [String: String]? = nil,
        workingDirectory: String? = nil
    ) throws -> Measurement {
        precondition(!arguments.isEmpty, "A command needs a program.")
        if let workingDirectory {
            let wrapped = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", workingDirectory] + arguments
            return try run(wrapped, outputPath: outputPath, environment: environment)
        }
        guard let program = which(arguments[0]) else {
            throw LaunchError(description: "\(arguments[0]): cannot start: \(String(cString: strerror(ENOENT)))")
        }
        let sink = outputPath ?? "/dev/null"
        guard let meter = peakMeter else {
            var measurement = try spawnAndWait(arguments, sink: sink, environment: environment)
            measurement.peakRSSBytes = 0
            return measurement
        }
        let report = FileManager.default.temporaryDirectory
            .appendingPathComponent("thumbkit-bench-rss-\(getpid())-\(UUID().uuidString)").path
        defer { unlink(report) }
        var measurement = try spawnAndWait(
            [meter, "-f", "%M", "-o", report, program] + arguments.dropFirst(), sink: sink, environment: environment)
        measurement.peakRSSBytes = peakKibibytes(reportedIn: report).map { $0 * 1024 } ?? 0
        return measurement
    }

    /// The figure GNU time wrote last in `path` (it may be preceded by a line such as
    /// `Command exited with non-zero status 3`), or nil.
    static func peakKibibytes(reportedIn path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(whereSeparator: \.isNewline).last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Spawns `arguments` and waits for it; `ru_maxrss` of the direct child (see ``ProcessTimer``
    /// for why that is not the command's own peak when the child is a tool).
    static func spawnAndWait(_ arguments: [String], sink: String, environment: [String: String]? = nil) throws
        -> Measurement
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, sink, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // The child starts with no signal blocked and every signal at its default action. The
        // calling thread may block most signals (Foundation's and Dispatch's threads do), and
        // posix_spawn would pass that mask on: Python's multiprocessing then hangs forever.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let rc = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        if rc != 0 {
            throw LaunchError(description: "\(arguments[0]): cannot start: \(String(cString: strerror(rc)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { throw LaunchError(description: "\(arguments[0]): wait failed") }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exit: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Measurement(
            wallSeconds: wall,
            userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
            peakRSSBytes: Int(usage.ru_maxrss) * 1024,
            exitStatus: exit)
    }

    /// The full path of `program` on PATH, or nil.
    package static func which(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
