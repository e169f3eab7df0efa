import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// Where the programs the benchmark starts live, beyond those looked up on PATH.
public struct BenchPrograms: Sendable, Hashable {
    /// The `thumbkit` executable to time (normally the one running).
    public var thumbkit: String
    /// The Python that has Pillow (Debian's `/usr/bin/python3` with `python3-pil`).
    public var python: String
    /// `scripts/peers/pillow_thumb.py`, or nil when it cannot be found.
    public var pillowScript: String?

    public init(thumbkit: String, python: String = "/usr/bin/python3", pillowScript: String? = nil) {
        self.thumbkit = thumbkit
        self.python = python
        self.pillowScript = pillowScript
    }

    /// The script's place inside a ThumbKit checkout.
    public static let pillowScriptPath = "scripts/peers/pillow_thumb.py"

    /// Finds `scripts/peers/pillow_thumb.py`: `THUMBKIT_PILLOW_SCRIPT` when set, else in the
    /// current folder or any folder above the executable (a `.build/release/thumbkit` binary
    /// sits three levels below the checkout).
    public static func findPillowScript(
        environment: [String: String], executable: String, currentDirectory: String
    ) -> String? {
        if let explicit = environment["THUMBKIT_PILLOW_SCRIPT"], !explicit.isEmpty {
            return FileManager.default.isReadableFile(atPath: explicit) ? explicit : nil
        }
        var candidates = [(currentDirectory as NSString).appendingPathComponent(pillowScriptPath)]
        var folder = (executable as NSString).deletingLastPathComponent
        while folder.count > 1 {
            candidates.append((folder as NSString).appendingPathComponent(pillowScriptPath))
            folder = (folder as NSString).deletingLastPathComponent
        }
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The absolute path of the running executable (`/proc/self/exe`), else `argv[0]`.
    public static func currentExecutable() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return CommandLine.arguments.first ?? "thumbkit"
    }
}
