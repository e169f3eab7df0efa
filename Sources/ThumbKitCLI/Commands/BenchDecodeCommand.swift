// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import ThumbKit
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitQuality

/// `thumbkit bench decode --job NAME [-j N] FILE...`: reads and decodes each file at the DCT
/// scale `thumbkit thumb` would pick for the job (the same header, limits and shrink-on-load
/// rule), then drops the pixels. What is left of a thumbnail run once resizing and encoding
/// are taken away: the decode floor the benchmark times with `--limit`.
enum BenchDecodeCommand: Command {
    static let spec = CommandSpec(
        name: "decode", abstract: "Decode only, at the job's scale (the floor).",
        positionals: [.variadic("file", help: "Image files to decode.")],
        options: [job, BenchCommand.jobs])

    /// `--job NAME`: one of the jobs (required).
    static let job: OptionKey<BenchJob?> = .parsedIfPresent(
        .value(
            "job", valueName: "name", help: "The job whose decode scale to use.",
            allowedValues: BenchJob.all.map(\.name))
    ) { name throws(UsageError) in
        guard let job = BenchJob.named(name) else {
            throw .invalidValue(option: "--job", value: name, reason: "no such job")
        }
        return job
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let request = try request(arguments)
        return run(job: request.job, files: request.files, parallel: request.parallel, context: context)
    }

    /// The job, files and parallelism the command line asks for.
    static func request(_ arguments: ParsedArguments) throws(UsageError) -> (
        job: BenchJob, files: [String], parallel: Int
    ) {
        guard let job = try arguments[job] else { throw .validationFailed("'bench decode' needs --job") }
        return (job, arguments.arguments("file"), try arguments[BenchCommand.jobs])
    }

    static func run(job: BenchJob, files: [String], parallel: Int, context: CommandContext) -> ExitCode {
        let failures = Atomic<Int>(0)
        WorkQueue.forEach(files.count, workers: parallel) { index in
            do throws(DecodeError) {
                try decode(files[index], job: job)
            } catch {
                context.report(error)
                failures.add(1, ordering: .relaxed)
            }
        }
        return ExitCode(failureCount: failures.load(ordering: .relaxed))
    }

    /// Decodes one file as `thumbkit thumb` would for `job`, and discards it.
    static func decode(_ path: String, job: BenchJob) throws(DecodeError) {
        let source = try ImageSource(FileIO.read(path), path: path)
        let options = DecodeOptions()
        try options.limits.check(width: source.header.width, height: source.header.height, path: path)
        let scale = job.scaleNumerator(for: BenchCorpus.File(path: path, header: source.header))
        _ = try ImageDecoders.decode(source, options: options, minimumScale: Double(scale) / 8)
    }
}
