// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

extension BenchReport.Environment {
    /// Describes this machine: CPU model from /proc/cpuinfo, processors available, the OS from
    /// /etc/os-release and the kernel, and the git commit of the first of `directories` that
    /// is inside a repository (pass the executable's folder first: a `.build/release/thumbkit`
    /// belongs to the checkout it was built in), else `unknown`.
    package static func detect(thumbkitVersion: String, tools: [BenchPeer], directories: [String?] = [nil]) -> Self {
        let cpu = cpuModel(cpuinfo: (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var os = osName(osRelease: (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? "")
        var system = utsname()
        if uname(&system) == 0 {
            let kernel = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            os += os.isEmpty ? "Linux \(kernel)" : ", Linux \(kernel)"
        }
        return Self(
            cpuModel: cpu, cores: cores, os: os, machine: "\(cpu), \(cores) cores, \(os)",
            thumbkitVersion: thumbkitVersion,
            gitCommit: directories.lazy.map { gitCommit(directory: $0) }.first { $0 != "unknown" } ?? "unknown",
            tools: tools)
    }

    /// The first `model name` of /proc/cpuinfo text, or `unknown CPU`.
    static func cpuModel(cpuinfo: String) -> String {
        for line in cpuinfo.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "model name" else { continue }
            let model = parts[1].trimmingCharacters(in: .whitespaces)
            if !model.isEmpty { return model }
        }
        return "unknown CPU"
    }

    /// `PRETTY_NAME` of /etc/os-release text, without quotes, or "".
    static func osName(osRelease: String) -> String {
        for line in osRelease.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        return ""
    }

    /// `git rev-parse HEAD` in `directory` (default: the current folder), or `unknown` outside
    /// a repository or without git.
    package static func gitCommit(directory: String? = nil) -> String {
        guard let commit = CommandCapture.output(["git", "rev-parse", "HEAD"], workingDirectory: directory),
            commit.count >= 7, commit.allSatisfy(\.isHexDigit)
        else { return "unknown" }
        return commit
    }
}
