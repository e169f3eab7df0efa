// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// One thing the watch folder did, logged as one line on stderr: text, or JSON with `--json`
/// (`{"event":"ingested","path":"inbox/bugs/Moth.jpg","record":"bug 3","outputs":5,"time":…}`).
public struct IngestEvent: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The watcher started (`reason` says how it watches).
        case watching
        /// A file became (or updated) a record, and its outputs were made.
        case ingested
        /// A file's bytes were already in the catalog for its record; nothing changed.
        case skipped
        /// A file failed (corrupt, not an image, over the limits, empty) and was moved to
        /// `.rejected/` beside a `.error.txt` saying why.
        case rejected
        /// Something went wrong that is not the file's fault (the catalog, the disk); the file
        /// was left where it is.
        case failed
        /// A rating sidecar changed a bug's rating.
        case rated
        /// A file or folder outside the layout was left alone.
        case ignored
        /// Work left half-done by an earlier watcher that stopped abruptly was finished or undone.
        case recovered
        /// A stop was asked for (SIGINT, SIGTERM): no new files are taken.
        case stopping
        /// The watcher stopped.
        case stopped
    }

    /// What happened.
    public var event: Kind
    /// The file or folder (the inbox path as given, joined with its relative path).
    public var path: String?
    /// The record concerned (`bug 3`, `food 12`).
    public var record: String?
    /// Why (a failure, a skip, a notice).
    public var reason: String?
    /// Outputs the record has after an ingest.
    public var outputs: Int?
    /// Where a rejected or processed file went.
    public var movedTo: String?
    /// When, in seconds since 1970.
    public var time: Double

    public init(
        _ event: Kind, path: String? = nil, record: String? = nil, reason: String? = nil, outputs: Int? = nil,
        movedTo: String? = nil, time: Double = Date().timeIntervalSince1970
    ) {
        self.event = event
        self.path = path
        self.record = record
        self.reason = reason
        self.outputs = outputs
        self.movedTo = movedTo
        self.time = time
    }

    /// Whether this is a failure of the file (`<path>: <reason>` lines).
    public var isFailure: Bool { event == .rejected || event == .failed }

    /// The text line (without the program name): `ingested inbox/bugs/Moth.jpg as bug 3 (5
    /// outputs)`, `inbox/bugs/bad.jpg: not a PNG, JPEG, WebP, HEIC or AVIF file (rejected: moved to …)`.
    public var text: String {
        let path = self.path ?? ""
        switch event {
        case .watching:
            return "watching \(path)" + (reason.map { " (\($0))" } ?? "")
        case .ingested:
            var line = "ingested \(path)"
            if let record { line += " as \(record)" }
            if let outputs { line += " (\(outputs) output\(outputs == 1 ? "" : "s"))" }
            if let movedTo { line += ", moved to \(movedTo)" }
            return line
        case .skipped:
            return "skipped \(path)" + (reason.map { ": \($0)" } ?? "")
        case .rejected:
            return "\(path): \(reason ?? "rejected")" + (movedTo.map { " (rejected: moved to \($0))" } ?? " (rejected)")
        case .failed:
            return "\(path): \(reason ?? "failed")"
        case .rated:
            return "rated \(record ?? path)" + (reason.map { ": \($0)" } ?? "")
        case .ignored:
            return "notice: ignored \(path)" + (reason.map { ": \($0)" } ?? "")
        case .recovered:
            return "recovered \(path)" + (reason.map { ": \($0)" } ?? "")
        case .stopping:
            return "stopping" + (reason.map { ": \($0)" } ?? "")
        case .stopped:
            return "stopped" + (reason.map { ": \($0)" } ?? "")
        }
    }

    /// One line of JSON, keys sorted, `/` unescaped.
    public var jsonLine: String {
        JSONLine.string(self) ?? "{\"event\":\"\(event.rawValue)\"}"
    }
}
