// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// A tool's command line for one job, with placeholders, and how the files are spread over
/// processes. ``expand(files:output:parallel:programs:scale:)`` turns it into a ``BenchWorkload``
/// (``expand(output:parallel:programs:)`` for a template that takes no files: the catalog build).
///
/// Placeholders (`{files}` and `{names}` as whole words, the others anywhere in a word):
/// - `{thumbkit}`, `{python}`, `{pillow}`: the programs from ``BenchPrograms``;
/// - `{out}`: the run's fresh output folder; `{jobs}`: the parallelism (`-j`);
/// - `{files}`: every input path of this process (as separate words); `{names}`: their file
///   names (with ``inSetFolder``); `{file}` and `{scale}`: the one input of a per-file process
///   and its DCT scale numerator.
package struct BenchCommandTemplate: Sendable, Hashable {
    /// How the inputs are spread over processes.
    package enum Distribution: Sendable, Hashable {
        /// One process gets every file (the tool threads or forks itself).
        case single
        /// The file list is cut into `{jobs}` contiguous parts, one process each, all at once
        /// (`xargs -P` style, for tools that work on one core).
        case split
        /// One process per file, `{jobs}` at a time.
        case perFile
    }

    /// The words, with placeholders.
    package let arguments: [String]
    /// How the inputs are spread.
    package let distribution: Distribution
    /// Run inside the set's folder and pass bare file names (`{names}`).
    package let inSetFolder: Bool

    package init(_ arguments: [String], distribution: Distribution = .single, inSetFolder: Bool = false) {
        precondition(!arguments.isEmpty, "A template needs a program.")
        self.arguments = arguments
        self.distribution = distribution
        self.inSetFolder = inSetFolder
    }

    /// The processes of one run over `files` (all from one set folder), writing into `output`.
    ///
    /// - Parameter scale: the DCT scale numerator of each file, for `{scale}`.
    package func expand(
        files: [BenchCorpus.File], output: String, parallel: Int, programs: BenchPrograms,
        scale: (BenchCorpus.File) -> Int = { _ in 8 }
    ) -> BenchWorkload {
        precondition(!files.isEmpty, "A run needs at least one file.")
        precondition(parallel >= 1, "Parallelism must be at least 1.")
        let folder = inSetFolder ? files[0].path.folder : nil
        let groups: [[BenchCorpus.File]]
        switch distribution {
        case .single: groups = [files]
        case .split: groups = Self.split(files, into: parallel)
        case .perFile: groups = files.map { [$0] }
        }
        let invocations = groups.map { group in
            BenchInvocation(
                words(for: group, output: output, parallel: parallel, programs: programs, scale: scale),
                workingDirectory: folder)
        }
        return BenchWorkload(invocations: invocations, lanes: distribution == .single ? 1 : parallel)
    }

    /// The one process of a template that takes no input files (the catalog build), writing
    /// into `output`.
    package func expand(output: String, parallel: Int, programs: BenchPrograms) -> BenchWorkload {
        precondition(distribution == .single && !inSetFolder, "A template without files runs as one process.")
        precondition(
            !arguments.contains {
                ["{files}", "{names}"].contains($0) || $0.contains("{file}") || $0.contains("{scale}")
            },
            "A template without files cannot name them.")
        precondition(parallel >= 1, "Parallelism must be at least 1.")
        return BenchWorkload(invocations: [
            BenchInvocation(words(for: [], output: output, parallel: parallel, programs: programs, scale: { _ in 8 }))
        ])
    }

    /// `files` cut into at most `parts` contiguous, nearly equal parts (none empty).
    static func split<T>(_ files: [T], into parts: Int) -> [[T]] {
        let count = min(parts, files.count)
        return (0..<count).map { part in
            let start = files.count * part / count
            let end = files.count * (part + 1) / count
            return Array(files[start..<end])
        }
    }

    private func words(
        for group: [BenchCorpus.File], output: String, parallel: Int, programs: BenchPrograms,
        scale: (BenchCorpus.File) -> Int
    ) -> [String] {
        var values = [
            "{out}": output, "{jobs}": String(parallel), "{thumbkit}": programs.thumbkit, "{python}": programs.python,
            "{pillow}": programs.pillowScript ?? BenchPrograms.pillowScriptPath,
        ]
        if let first = group.first {
            values["{file}"] = first.path
            values["{scale}"] = String(scale(first))
        }
        var result: [String] = []
        for word in arguments {
            switch word {
            case "{files}": result += group.map(\.path)
            case "{names}": result += group.map { $0.path.name }
            default:
                var expanded = word
                for (placeholder, value) in values where expanded.contains(placeholder) {
                    expanded = expanded.replacingOccurrences(of: placeholder, with: value)
                }
                result.append(expanded)
            }
        }
        return result
    }
}

/// The folder and file name of a path, for `inSetFolder` templates.
extension String {
    fileprivate var folder: String {
        guard let slash = lastIndex(of: "/") else { return "." }
        return slash == startIndex ? "/" : String(self[..<slash])
    }

    fileprivate var name: String {
        guard let slash = lastIndex(of: "/") else { return self }
        return String(self[index(after: slash)...])
    }
}
