// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// A tool found on this machine, ready to time: which tool, the program it runs and the version
/// it reports (recorded in the report's environment, so figures can be traced to builds).
package struct BenchPeer: Sendable, Hashable, Codable {
    /// The tool.
    package let tool: BenchTool
    /// The program started (an absolute path).
    package let executable: String
    /// The first line the tool prints about its version (`libvips 8.14.1`).
    package let version: String

    package init(tool: BenchTool, executable: String, version: String) {
        self.tool = tool
        self.executable = executable
        self.version = version
    }

    /// The program a tool needs on PATH (or at the path given by `programs`).
    package static func program(for tool: BenchTool, programs: BenchPrograms) -> String {
        switch tool {
        case .thumbkit, .decodeFloor: return programs.thumbkit
        case .vipsthumbnail: return "vipsthumbnail"
        case .imagemagick, .imagemagickHint: return "mogrify"
        case .graphicsmagick: return "gm"
        case .pillow: return programs.python
        case .djpegFloor: return "djpeg"
        }
    }

    /// Looks for each tool in `tools` (PATH, or the paths in `programs`) and asks it for its
    /// version. A tool that is missing or does not answer is returned in `missing` with the reason.
    ///
    /// - Parameter thumbkitVersion: what ThumbKit's own tools report (it is not asked).
    package static func discover(
        _ tools: [BenchTool], programs: BenchPrograms, thumbkitVersion: String
    ) -> (found: [BenchPeer], missing: [BenchError]) {
        var found: [BenchPeer] = []
        var missing: [BenchError] = []
        for tool in tools {
            let program = Self.program(for: tool, programs: programs)
            guard let executable = ProcessTimer.which(program) else {
                missing.append(
                    .tool(name: tool.rawValue, reason: "'\(program)' not found (install it with scripts/install-peers)")
                )
                continue
            }
            if tool == .pillow && programs.pillowScript == nil {
                missing.append(
                    .tool(
                        name: tool.rawValue,
                        reason: "cannot find \(BenchPrograms.pillowScriptPath) (give it with --pillow-script)"))
                continue
            }
            guard let version = version(of: tool, executable: executable, thumbkitVersion: thumbkitVersion) else {
                let reason =
                    tool == .pillow
                    ? "\(executable) cannot import PIL (install python3-pil with scripts/install-peers)"
                    : "\(executable) does not report a version"
                missing.append(.tool(name: tool.rawValue, reason: reason))
                continue
            }
            found.append(BenchPeer(tool: tool, executable: executable, version: version))
        }
        return (found, missing)
    }

    /// The tool's version line, or nil when it does not answer.
    static func version(of tool: BenchTool, executable: String, thumbkitVersion: String) -> String? {
        switch tool {
        case .thumbkit, .decodeFloor:
            return "thumbkit \(thumbkitVersion)"
        case .vipsthumbnail:
            return CommandCapture.firstLine([executable, "--vips-version"])
        case .imagemagick, .imagemagickHint:
            return CommandCapture.firstLine([executable, "-version"])?.replacingOccurrences(of: "Version: ", with: "")
        case .graphicsmagick:
            return CommandCapture.firstLine([executable, "version"])
        case .pillow:
            return CommandCapture.firstLine([
                executable, "-c",
                "import PIL, sys; print('Pillow', PIL.__version__, 'on Python', sys.version.split()[0])",
            ])
        case .djpegFloor:
            // djpeg has no version flag: -version prints its banner, then reads stdin (empty here)
            // and fails, so its exit status is ignored.
            return CommandCapture.firstLine([executable, "-version"], acceptFailure: true)
        }
    }
}
