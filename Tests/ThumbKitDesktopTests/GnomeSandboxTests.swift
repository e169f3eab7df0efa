import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitDesktop

/// gnome-desktop runs our `.thumbnailer` entry inside bubblewrap, exactly as Nautilus would.
///
/// The sandbox shows only `/usr`, so the entry must name a statically linked binary there:
/// `scripts/install-thumbnailer` puts one at `/usr/local/bin/thumbkit`. `bwrap` and
/// gnome-desktop come from TEST_PACKAGES (`.needs`: skipped without them, a failure under
/// CI=true). The installed binary and a working sandbox are not packages: without them the test
/// shows as skipped with the reason, under CI=true too (it never installs anything itself, and
/// `.ci/run` does not run scripts/install-thumbnailer).
struct GnomeSandboxTests {
    static let installed = "/usr/local/bin/thumbkit"
    static let requirements = [ToolRequirement.program("bwrap"), DesktopClients.gnomeDesktop]

    /// ``bubblewrapWorks()``, asked once.
    static let sandbox = bubblewrapWorks()

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
        return (out.status == 0, out.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(
        .needs(requirements),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: installed),
            "\(installed) is not installed (run scripts/install-thumbnailer)"),
        // Without bwrap at all, `.needs` decides (a failure under CI=true).
        .enabled(
            if: !ToolRequirement.program("bwrap").isMet || sandbox.0,
            "bubblewrap cannot make a sandbox here: \(sandbox.1)"),
        .tags(.realProcess))
    func generateThumbnailRunsOurEntryInsideBubblewrap() throws {
        guard ToolRequirement.require(Self.requirements) else { return }
        let f = try DesktopFixture("tk-bwrap")
        defer { f.remove() }
        let data = f.root.path + "/share"
        try FileManager.default.createDirectory(atPath: data + "/thumbnailers", withIntermediateDirectories: true)
        let entry = try String(
            contentsOf: TestImages.packageRoot.appendingPathComponent("share/thumbnailers/thumbkit.thumbnailer"),
            encoding: .utf8)
        #expect(entry.contains("Exec=\(Self.installed) thumbnailer -s %s %u %o"))
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
                pixbuf = factory.generate_thumbnail(uri, mime, None)
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
        guard lines.count == 2 else { return }
        let cache = ThumbnailCache(root: f.cacheHome + "/thumbnails", version: "unused")
        for (line, (path, size)) in zip(lines, zip(sources, ["256 160", "256 256"])) {
            let uri = FileURI.uri(forAbsolutePath: Array(path.utf8))
            // Our binary made it (its Software chunk), and GNOME then finds it valid.
            #expect(line.hasPrefix(size + " thumbkit "), "\(line)")
            #expect(line.hasSuffix(" " + cache.path(forURI: uri, size: .large)), "\(line)")
        }
    }
}
