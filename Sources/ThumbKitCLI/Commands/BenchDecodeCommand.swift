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
enum BenchDecodeCommand {
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
        let data = try FileIO.read(path)
        let header = try ImageDecoders.readHeader(data, path: path)
        let options = DecodeOptions()
        try options.limits.check(width: header.width, height: header.height, path: path)
        let scale = job.scaleNumerator(for: BenchCorpus.File(path: path, header: header))
        _ = try ImageDecoders.decode(data, path: path, options: options, minimumScale: Double(scale) / 8)
    }
}
