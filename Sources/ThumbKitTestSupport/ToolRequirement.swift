// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit

/// Something a test needs from the machine besides the package: a program (`cwebp`, `gio`,
/// `bwrap`), a file a Debian package installs (Ghostscript's CMYK profile), or a PyGObject module
/// `/usr/bin/python3` can import. All of them come from `TEST_PACKAGES` in `scripts/lib.sh`,
/// which `scripts/test` installs, so CI has them.
///
/// The same pattern as the corpus (``TestCorpus``), one helper for every tool:
/// - the test carries `.needs(…)`, so without the tool it shows as **skipped**, never as passed;
/// - under `CI=true` the trait lets it run anyway, and the test's first line,
///   `guard ToolRequirement.require(…) else { return }`, records a failure: CI never passes by
///   skipping.
///
/// ```swift
/// @Test(.needs(.program("cwebp"))) func webpDecodes() throws {
///     guard ToolRequirement.require([.program("cwebp")]) else { return }
///     …
/// }
/// ```
public struct ToolRequirement: Sendable, Hashable, CustomStringConvertible {
    enum Probe: Sendable, Hashable {
        case program(String)
        case file(String)
        case python(module: String, version: String)
        case pillow(feature: String)
    }

    let probe: Probe
    /// The Debian package that provides it.
    public let package: String

    /// A program on PATH (or in /usr/bin); its package from ``packages`` when not given.
    public static func program(_ name: String, package: String? = nil) -> ToolRequirement {
        ToolRequirement(probe: .program(name), package: package ?? packages[name] ?? "?")
    }

    /// Several programs.
    public static func programs(_ names: [String]) -> [ToolRequirement] { names.map { program($0) } }

    /// A file that must exist (and be readable).
    public static func file(_ path: String, package: String) -> ToolRequirement {
        ToolRequirement(probe: .file(path), package: package)
    }

    /// `gi.repository.<module>` at `version`, imported by `/usr/bin/python3` (PyGObject and the
    /// module's typelib).
    public static func python(gi module: String, version: String, package: String) -> ToolRequirement {
        ToolRequirement(probe: .python(module: module, version: version), package: package)
    }

    /// Pillow (`python3-pil`) imported by `/usr/bin/python3`, built with `feature`
    /// (`PIL.features.check`: `webp`, `jpg`, `zlib`…).
    public static func pillow(_ feature: String) -> ToolRequirement {
        ToolRequirement(probe: .pillow(feature: feature), package: "python3-pil")
    }

    /// The Debian packages of the programs the tests run (as `TEST_PACKAGES` in scripts/lib.sh).
    public static let packages = [
        "cwebp": "webp", "img2webp": "webp", "dwebp": "webp", "webpinfo": "webp",
        "heif-enc": "libheif-examples", "heif-info": "libheif-examples",
        "avifenc": "libavif-bin", "avifdec": "libavif-bin",
        "gio": "libglib2.0-bin", "bwrap": "bubblewrap", "vipsthumbnail": "libvips-tools",
        "time": "time", "python3": "python3", "setpriv": "util-linux",
    ]

    /// `cwebp (webp)`.
    public var description: String {
        switch probe {
        case .program(let name): "\(name) (\(package))"
        case .file(let path): "\(path) (\(package))"
        case .python(let module, let version): "/usr/bin/python3 with gi.repository.\(module) \(version) (\(package))"
        case .pillow(let feature): "/usr/bin/python3 with Pillow's \(feature) support (\(package))"
        }
    }

    /// Whether it is there; each probe runs once per test process.
    public var isMet: Bool {
        if let known = Self.results.withLock({ $0[probe] }) { return known }
        let met = Self.check(probe)
        Self.results.withLock { $0[probe] = met }
        return met
    }

    /// The absolute path of a program on PATH (or in /usr/bin), nil when it is not installed.
    public static func find(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The ones of `requirements` that are missing.
    public static func missing(_ requirements: [ToolRequirement]) -> [ToolRequirement] {
        requirements.filter { !$0.isMet }
    }

    /// Call first in a test that carries `.needs(…)`: true when everything is there. Otherwise
    /// prints a visible "NOTICE: … skipping" line and returns false, and under `CI=true` (the
    /// only way the test gets here without them) records a failure.
    public static func require(
        _ requirements: [ToolRequirement], sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let absent = missing(requirements)
        if absent.isEmpty { return true }
        let message = "not installed: \(absent.map(\.description).joined(separator: ", ")); skipping"
        print("NOTICE: \(message)")
        if TestCorpus.mustExist {
            Issue.record(
                "CI=true but \(message) (scripts/test installs TEST_PACKAGES from scripts/lib.sh)",
                sourceLocation: sourceLocation)
        }
        return false
    }

    /// Results of the probes run so far.
    private static let results = Locked<[Probe: Bool]>([:])

    private static func check(_ probe: Probe) -> Bool {
        switch probe {
        case .program(let name):
            return find(name) != nil
        case .file(let path):
            return FileManager.default.isReadableFile(atPath: path)
        case .python(let module, let version):
            let python = "/usr/bin/python3"
            guard FileManager.default.isExecutableFile(atPath: python) else { return false }
            let program =
                "import gi; gi.require_version('\(module)', '\(version)'); from gi.repository import \(module)"
            let run = try? TestBinary.run(executable: URL(fileURLWithPath: python), ["-c", program])
            return run?.status == 0
        case .pillow(let feature):
            let python = "/usr/bin/python3"
            guard FileManager.default.isExecutableFile(atPath: python) else { return false }
            let program = "import sys, PIL.features as f; sys.exit(0 if f.check('\(feature)') else 1)"
            let run = try? TestBinary.run(executable: URL(fileURLWithPath: python), ["-c", program])
            return run?.status == 0
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test when one of `requirements` is missing, so it shows as skipped rather than
    /// passed; under `CI=true` the test runs anyway and ``ToolRequirement/require(_:sourceLocation:)``
    /// fails it.
    public static func needs(_ requirements: [ToolRequirement]) -> Self {
        .enabled(
            if: TestCorpus.mustExist || ToolRequirement.missing(requirements).isEmpty,
            "not installed: \(ToolRequirement.missing(requirements).map(\.description).joined(separator: ", "))")
    }

    /// ``needs(_:)-swift.type.method`` for one or a few requirements.
    public static func needs(_ requirements: ToolRequirement...) -> Self { needs(requirements) }
}
