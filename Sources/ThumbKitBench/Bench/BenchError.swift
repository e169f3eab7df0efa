// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality
/// Why a benchmark could not run or be shown. Each case names the path (or the run, job or
/// tool) it is about; `description` is one line, `<subject>: <reason>`.
package enum BenchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The corpus folder is missing, empty or holds a file that is not what its set says.
    case corpus(path: String, reason: String)
    /// A tool could not be started, or exited with a failure.
    case tool(name: String, reason: String)
    /// No stored run has this id.
    case noSuchRun(id: Int)
    /// The benchmark history to read does not exist.
    case missingHistory(path: String)
    /// A report or chart file could not be written.
    case write(path: String, reason: String)
    /// The demo catalog the `icons` job builds could not be prepared, or a run's copy made.
    case demoCatalog(path: String, reason: String)
    /// A queue bench (`thumbkit bench queue`) could not set up its catalog, or its workers did
    /// not drain it; `subject` is the option, worker or catalog concerned.
    case queue(subject: String, reason: String)

    /// What the error is about: a path, a tool or `run N`.
    package var subject: String {
        switch self {
        case .corpus(let path, _), .write(let path, _), .missingHistory(let path), .demoCatalog(let path, _):
            return path
        case .tool(let name, _): return name
        case .queue(let subject, _): return subject
        case .noSuchRun(let id): return "run \(id)"
        }
    }

    /// The reason, lower-case, without a final period.
    package var reason: String {
        switch self {
        case .corpus(_, let reason), .tool(_, let reason), .write(_, let reason), .demoCatalog(_, let reason),
            .queue(_, let reason):
            return reason
        case .noSuchRun: return "no such benchmark run (see 'thumbkit bench history')"
        case .missingHistory:
            return "no benchmark history here (a 'thumbkit bench' run creates it; "
                + "'thumbkit bench history --import-catalog CATALOG' copies the runs an older thumbkit kept in a catalog)"
        }
    }

    package var description: String { "\(subject): \(reason)" }
}
