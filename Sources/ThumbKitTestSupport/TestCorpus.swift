// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The shared, read-only test corpus (`/work/shared/testimages` on the build machines): real
/// PNG and JPEG files described row by row in its `MANIFEST.tsv`.
///
/// The root is `$THUMBKIT_TEST_CORPUS` when set, else `../shared/testimages` beside the package
/// root, which is found from this file's `#filePath` (never from the current directory).
public enum TestCorpus {
    /// What the corpus says a decoder must do with a file.
    public enum Expectation: String, Sendable, Hashable {
        /// Decodes to the manifest's width × height (warnings allowed).
        case decode
        /// Must be refused with a `DecodeError` that names the file.
        case reject
    }

    /// One line of `MANIFEST.tsv`.
    public struct Row: Sendable, Hashable, CustomStringConvertible {
        /// Path relative to the corpus root, e.g. `pngsuite/basn0g01.png`.
        public let path: String
        /// File size in bytes.
        public let bytes: Int
        /// Lower-case hex SHA-256 of the file.
        public let sha256: String
        /// `png`, `jpeg` or `unknown` (bad signature).
        public let format: String
        /// Stored width (0 when the header cannot be read).
        public let width: Int
        /// Stored height (0 when the header cannot be read).
        public let height: Int
        /// Decode or reject.
        public let expected: Expectation
        /// Header facts, what libpng/djpeg said, and the source.
        public let note: String

        /// The file only decodes with a codec warning (its note says "warning:").
        public var isWarning: Bool { note.contains("warning:") }

        /// The relative path: parameterised tests are labelled by it.
        public var description: String { path }
    }

    /// Environment variable that overrides the corpus location.
    public static let environmentKey = "THUMBKIT_TEST_CORPUS"

    /// The corpus root directory (which may not exist).
    public static var root: URL {
        if let override = ProcessInfo.processInfo.environment[environmentKey], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return TestImages.packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared", isDirectory: true)
            .appendingPathComponent("testimages", isDirectory: true)
    }

    /// The manifest file.
    public static var manifestURL: URL { root.appendingPathComponent("MANIFEST.tsv") }

    /// True when the manifest can be read.
    public static var isAvailable: Bool { FileManager.default.isReadableFile(atPath: manifestURL.path) }

    /// Every manifest row (empty when the corpus is missing). Parsed once.
    public static var allRows: [Row] { cachedRows }

    /// The rows that satisfy `predicate`, in manifest order (empty when the corpus is missing).
    public static func rows(where predicate: (Row) -> Bool = { _ in true }) -> [Row] {
        allRows.filter(predicate)
    }

    /// The absolute location of a corpus file given its manifest path.
    public static func url(for path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// The absolute location of a row's file.
    public static func url(for row: Row) -> URL { url(for: row.path) }

    /// The bytes of a corpus file.
    public static func bytes(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(for: path)))
    }

    /// True under `CI=true`, where a missing corpus must fail the tests that need it rather than
    /// skip them.
    public static var mustExist: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }

    /// Call at the start of a test that needs the corpus; the test also carries `.needsCorpus`, so
    /// it only gets here without the corpus under `CI=true`. Returns true when the corpus is
    /// there. When it is missing, prints a visible "NOTICE: … skipping" line and returns false,
    /// or, under `CI=true`, also records a test failure: CI must never pass by skipping.
    public static func requireCorpus(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if isAvailable { return true }
        let message = "test corpus not found at \(root.path); skipping"
        print("NOTICE: \(message)")
        if mustExist {
            Issue.record("CI=true but the \(message)", sourceLocation: sourceLocation)
        }
        return false
    }

    /// Parses manifest text: a header line, then tab-separated rows; malformed lines are skipped.
    public static func parseManifest(_ text: String) -> [Row] {
        var rows: [Row] = []
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7, let expected = Expectation(rawValue: fields[6]) else { continue }
            rows.append(
                Row(
                    path: fields[0], bytes: Int(fields[1]) ?? 0, sha256: fields[2], format: fields[3],
                    width: Int(fields[4]) ?? 0, height: Int(fields[5]) ?? 0, expected: expected,
                    note: fields.count > 7 ? fields[7...].joined(separator: "\t") : ""))
        }
        return rows
    }

    private static let cachedRows: [Row] = {
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else { return [] }
        return parseManifest(String(decoding: data, as: UTF8.self))
    }()
}

extension Trait where Self == ConditionTrait {
    /// Skips the test when the corpus is missing, so it shows as skipped rather than passed; under
    /// `CI=true` the test runs anyway and ``TestCorpus/requireCorpus(sourceLocation:)`` fails it.
    /// Parameterised tests whose arguments come from the manifest carry it too: without the corpus
    /// they have no arguments, and would otherwise pass with no cases (under `CI=true` they show
    /// as skipped with "No test cases found", while the corpus tests that call `requireCorpus`
    /// fail the run).
    public static var needsCorpus: Self {
        .enabled(
            if: TestCorpus.isAvailable || TestCorpus.mustExist,
            "test corpus not found at \(TestCorpus.root.path) (set \(TestCorpus.environmentKey))")
    }
}

extension Tag {
    /// Uses the shared photo corpus (``TestCorpus``): slow in a debug build, absent on some machines.
    @Tag public static var corpus: Self
    /// Spawns a real process: the built `thumbkit` binary, or an outside tool such as `gio`.
    @Tag public static var realProcess: Self
    /// Kills a process with SIGKILL part way through and checks what it left behind.
    @Tag public static var kill: Self
}
