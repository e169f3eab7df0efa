// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitDesktop

/// gnome-desktop runs our `.thumbnailer` entry inside bubblewrap, exactly as Nautilus would.
///
/// The sandbox shows only `/usr`, so the entry must name a statically linked binary there.
/// `scripts/test` builds one (`--static-swift-stdlib`), copies it into a fresh
/// `/usr/local/lib/thumbkit-test.XXXXXX/` and passes its path in
/// `THUMBKIT_TEST_SANDBOX_THUMBNAILER`; without that variable the test uses the binary
/// `scripts/install-thumbnailer` puts at `/usr/local/bin/thumbkit`. With neither it shows as
/// skipped, and under `CI=true` it fails. `bwrap` and gnome-desktop come from TEST_PACKAGES
/// (`.needs`: skipped without them, a failure under CI=true). A kernel that does not let
/// bubblewrap make a sandbox is not a package: then the test prints why and skips, under
/// CI=true too; either way it prints whether bubblewrap works, so the CI log answers that.
struct GnomeSandboxTests {
    /// Where `scripts/install-thumbnailer` installs the binary, and what the shipped entry names.
    static let installed = "/usr/local/bin/thumbkit"
    /// The test-only variable through which `scripts/test` passes its static build.
    static let environmentKey = "THUMBKIT_TEST_SANDBOX_THUMBNAILER"
    static let requirements = [ToolRequirement.program("bwrap"), DesktopClients.gnomeDesktop]

    /// The binary the entry will name: `$THUMBKIT_TEST_SANDBOX_THUMBNAILER` when set (even if
    /// it is wrong: ``requireThumbnailer()`` then fails the test), else the installed one if
    /// present, else nil.
    static var thumbnailer: String? {
        if let path = ProcessInfo.processInfo.environment[environmentKey], !path.isEmpty { return path }
        return FileManager.default.isExecutableFile(atPath: installed) ? installed : nil
    }

    /// ``bubblewrapWorks()``, asked once, when the first test that needs it is about to run. It
    /// prints the answer either way: a visible line in the test output, CI's record of whether
    /// this machine can run the sandbox.
    static let sandbox: (Bool, String) = {
        let answer = bubblewrapWorks()
        if answer.0 {
            print("NOTICE: bubblewrap can make a sandbox here (bwrap --unshare-all succeeded)")
        } else {
            print("NOTICE: bubblewrap cannot make a sandbox here (\(answer.1)); skipping GnomeSandboxTests")
        }
        return answer
    }()

    /// Skips a test when bubblewrap cannot make a sandbox here. Without bwrap at all, `.needs`
    /// decides instead (a failure under CI=true).
    static let bubblewrap = ConditionTrait.enabled(
        "bubblewrap cannot make a sandbox here (the NOTICE line says why)"
    ) { !ToolRequirement.program("bwrap").isMet || sandbox.0 }

    /// Whether bubblewrap can make a sandbox on this machine, with its error when not.
    static func bubblewrapWorks() -> (Bool, String) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap") else {
            return (false, "no /usr/bin/bwrap")
        }
        guard
            let out = try? DesktopClients.run(
                "/usr/bin/bwrap",
                [
                    "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                    "--symlink", "usr/bin", "/bin", "--proc", "/proc", "--dev", "/dev", "--unshare-all",
                    "--die-with-parent", "/usr/bin/true",
                ])
        else { return (false, "bwrap did not start") }
        let error = out.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        return (out.status == 0, "exit status \(out.status)" + (error.isEmpty ? "" : ": " + error))
    }

    /// Call first: the binary to run in the sandbox. Records a failure when the variable names
    /// something unusable, or (under CI=true) when there is no binary at all; otherwise, without
    /// one, prints a NOTICE and returns nil.
    static func requireThumbnailer(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let path = thumbnailer else {
            let message =
                "no thumbnailer to run: \(environmentKey) is unset (scripts/test sets it) and \(installed) "
                + "is not installed (scripts/install-thumbnailer); skipping"
            print("NOTICE: \(message)")
            if TestCorpus.mustExist { Issue.record("CI=true but \(message)", sourceLocation: sourceLocation) }
            return nil
        }
        var problems: [String] = []
        if !FileManager.default.isExecutableFile(atPath: path) { problems.append("is not an executable file") }
        if !path.hasPrefix("/usr/") { problems.append("is outside /usr, which is all the sandbox shows") }
        // The path goes unquoted into the entry's Exec line, which gnome-desktop splits as a shell would.
        if path.contains(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || "/._-+".contains($0))) }) {
            problems.append("has characters an Exec line would need quoted")
        }
        guard problems.isEmpty else {
            Issue.record("\(path) \(problems.joined(separator: ", "))", sourceLocation: sourceLocation)
            return nil
        }
        print("NOTICE: GnomeSandboxTests runs \(path) inside bubblewrap")
        return path
    }

    /// Writes the shipped entry with `binary` in place of the installed one into a private
    /// `XDG_DATA_DIRS` folder, has gnome-desktop's factory make LARGE thumbnails of a JPEG and a
    /// PNG under awkward names, and returns one line per file: the pixbuf's size, its Software
    /// chunk and where `lookup` finds it, or `no thumbnail: <why>`.
    static func generate(with binary: String, in f: DesktopFixture) throws -> (sources: [String], lines: [String]) {
        let data = f.root.path + "/share"
        try FileManager.default.createDirectory(atPath: data + "/thumbnailers", withIntermediateDirectories: true)
        let shipped = try String(
            contentsOf: TestImages.packageRoot.appendingPathComponent("share/thumbnailers/thumbkit.thumbnailer"),
            encoding: .utf8)
        #expect(shipped.contains("\nTryExec=\(installed)\n"))
        #expect(shipped.contains("\nExec=\(installed) thumbnailer -s %s %u %o\n"))
        // TryExec too, or gnome-desktop would drop the entry when /usr/local/bin/thumbkit is absent.
        let entry = shipped.replacingOccurrences(of: installed, with: binary)
        #expect(entry.contains("\nExec=\(binary) thumbnailer -s %s %u %o\n"))
        try entry.write(toFile: data + "/thumbnailers/thumbkit.thumbnailer", atomically: true, encoding: .utf8)
        let sources = [
            try f.write("Fotos #1/été 100% a b.jpg", GeneratedImages.jpeg(width: 640, height: 400, seed: 1)),
            try f.write("Fotos #1/icon ü.png", GeneratedImages.png(width: 300, height: 300, seed: 2)),
        ]
        let program = """
            import os, sys, gi
            gi.require_version('GnomeDesktop', '3.0')
            from gi.repository import GnomeDesktop, GLib
            factory = GnomeDesktop.DesktopThumbnailFactory.new(GnomeDesktop.DesktopThumbnailSize.LARGE)
            for path, mime in zip(sys.argv[1::2], sys.argv[2::2]):
                uri = GLib.filename_to_uri(os.fsencode(path), None)
                mtime = int(os.stat(path).st_mtime)
                try:
                    pixbuf = factory.generate_thumbnail(uri, mime, None)
                except GLib.Error as error:
                    print('no thumbnail:', error.message)
                    continue
                if pixbuf is None:
                    print('no thumbnail: generate_thumbnail returned None')
                    continue
                factory.save_thumbnail(pixbuf, uri, mtime, None)
                print(pixbuf.get_width(), pixbuf.get_height(), pixbuf.get_option('tEXt::Software'),
                      factory.lookup(uri, mtime))
            """
        let env = [
            "XDG_DATA_DIRS": data + ":/usr/share", "XDG_DATA_HOME": f.root.path + "/data-home",
            "XDG_CACHE_HOME": f.cacheHome, "GSETTINGS_SCHEMA_DIR": "/usr/share/glib-2.0/schemas",
        ]
        let out = try DesktopClients.python(
            program, [sources[0], "image/jpeg", sources[1], "image/png"], environment: env)
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(out.stdout)\(out.stderr)")
        return (sources, lines)
    }

    @Test(
        .needs(requirements),
        .enabled(
            if: TestCorpus.mustExist || thumbnailer != nil,
            "no thumbnailer: \(environmentKey) is unset and \(installed) is not installed"),
        bubblewrap,
        .tags(.realProcess))
    func generateThumbnailRunsOurEntryInsideBubblewrap() throws {
        guard ToolRequirement.require(Self.requirements) else { return }
        guard let binary = Self.requireThumbnailer() else { return }
        let f = try DesktopFixture("tk-bwrap")
        defer { f.remove() }
        let (sources, lines) = try Self.generate(with: binary, in: f)
        guard lines.count == 2 else { return }
        let cache = ThumbnailCache(root: f.cacheHome + "/thumbnails", version: "unused")
        for (line, (path, size)) in zip(lines, zip(sources, ["256 160", "256 256"])) {
            let uri = FileURI.uri(forAbsolutePath: Array(path.utf8))
            // Our binary made it (its Software chunk), and GNOME then finds it valid.
            #expect(line.hasPrefix(size + " thumbkit "), "GNOME did not produce our thumbnail: \(line)")
            #expect(line.hasSuffix(" " + cache.path(forURI: uri, size: .large)), "\(line)")
        }
    }

    /// The control's binary: the test's own `thumbkit` (dynamically linked, and outside /usr
    /// unless the checkout is there), nil when it cannot serve (its path would need quoting).
    static var controlBinary: String? {
        let path = TestBinary.thumbkit.path
        return path.hasPrefix("/usr/") || path.contains(where: { " \t\"'\\%$`".contains($0) }) ? nil : path
    }

    /// The control: the test's own `thumbkit` works when run directly, yet gnome-desktop makes no
    /// thumbnail with it, so the factory really runs the entry in a sandbox and the test above
    /// can tell when it does not get our thumbnail.
    @Test(
        .needs(requirements),
        .enabled(if: controlBinary != nil, "the test's thumbkit is under /usr or its path needs quoting"),
        bubblewrap,
        .tags(.realProcess))
    func aBinaryTheSandboxCannotRunMakesNoThumbnail() throws {
        guard ToolRequirement.require(Self.requirements), let binary = Self.controlBinary else { return }
        let f = try DesktopFixture("tk-bwrap")
        defer { f.remove() }
        let direct = try f.write("direct.png", GeneratedImages.png(width: 40, height: 30, seed: 3))
        let run = try TestBinary.run(["thumbnailer", "-s", "256", direct, f.root.path + "/direct-out.png"])
        #expect(run.status == 0, "\(run.stderr)")
        let (_, lines) = try Self.generate(with: binary, in: f)
        for line in lines {
            #expect(line.hasPrefix("no thumbnail: "), "\(line)")
        }
    }
}
