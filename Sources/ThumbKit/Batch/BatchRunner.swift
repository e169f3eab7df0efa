// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

/// Runs a thumbnail request over many files: images in parallel across `jobs` workers, each
/// file read, decoded once, resized for every scale, encoded and written atomically. A failure
/// is recorded for its file and the batch goes on (or, with `stopOnError`, no new file starts).
/// Each file has `request.decode.limits.maxSeconds` from the start of its read to its last write.
package struct BatchRunner: Sendable {
    package var request: ThumbnailRequest
    package var encoding: EncodeOptions
    package var template: OutputTemplate
    /// Parallel workers (≥ 1).
    package var jobs: Int
    /// Start no new file after the first failure; files already being processed finish (or
    /// fail) cleanly, and files never started are left out of the report.
    package var stopOnError: Bool
    /// Flush each output to disk before renaming it into place (`FileIO.writeAtomically`).
    /// Off by default: outputs are still replaced atomically, and a thumbnail lost to a power
    /// cut is rebuilt from its source, whereas the flushes cost about a sixth of a batch's time.
    package var durable: Bool
    /// Inputs already read, by path: the standard input (`-`) is read once by the caller and
    /// handed in here. Any other path is read from disk.
    package var preloaded: [String: [UInt8]] = [:]
    /// When set, every output's bytes go here instead of to a file (`-o -`: the standard output),
    /// and the report names the output `-`.
    package var outputSink: (@Sendable ([UInt8]) throws(EncodeError) -> Void)?
    /// How much of each output write reaches the disk: ``NoWriteFaults`` (all of it) unless a
    /// test, or the CLI's hidden `thumb --_disk-full-after`, simulates a full disk.
    package var writeFaults: any FileWriteFaults = NoWriteFaults()

    package init(
        request: ThumbnailRequest, encoding: EncodeOptions, template: OutputTemplate, jobs: Int,
        stopOnError: Bool = false, durable: Bool = false
    ) {
        self.request = request
        self.encoding = encoding
        self.template = template
        self.jobs = max(1, jobs)
        self.stopOnError = stopOnError
        self.durable = durable
    }

    /// Processes `files` in `handOutOrder` (largest first on several workers), never two
    /// memory-heavy decodes at once (see `BatchScheduler`); the report lists them in order of
    /// submission.
    /// `progress(done, total)` after each file and `onItem` with each finished item (from
    /// worker threads). Temporary files that killed writers left in the output folders are
    /// removed first (`FileIO.removeStaleTemporaries`). `subfolders` (one per file, as
    /// `InputCollector.Result.subfolders`) fill the template's `%d`.
    package func run(
        _ files: [String], subfolders: [String]? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil,
        onItem: (@Sendable (BatchItem) -> Void)? = nil
    ) -> BatchReport {
        run(plan(files, subfolders: subfolders), progress: progress, onItem: onItem)
    }

    /// Runs the entries of `plan` (from ``plan(_:subfolders:)``, perhaps ``BatchPlan/sharded(_:)``);
    /// its left-out inputs are not read.
    public func run(
        _ plan: BatchPlan, progress: (@Sendable (Int, Int) -> Void)? = nil,
        onItem: (@Sendable (BatchItem) -> Void)? = nil
    ) -> BatchReport {
        let start = DispatchTime.now().uptimeNanoseconds
        let files = plan.entries.map(\.file)
        let plannedOutputs = plan.entries.map(\.outputs)
        // No folder to sweep when the outputs go to the sink (their "path" is `-`).
        let outputPaths = outputSink != nil ? [] : plannedOutputs.flatMap { (try? $0.get()) ?? [] }.map(\.1)
        for folder in Set(outputPaths.map { ($0 as NSString).deletingLastPathComponent }) {
            FileIO.removeStaleTemporaries(in: folder.isEmpty ? "." : folder)
        }
        let stopped = Atomic<Bool>(false)
        let done = Atomic<Int>(0)
        let results = Locked<[BatchItem?]>(Array(repeating: nil, count: files.count))
        let workers = min(jobs, max(1, files.count))
        // Fewer images than workers: give the spare threads to each image's rows.
        let rowThreads = max(1, jobs / workers)
        let scheduler = BatchScheduler(order: Self.handOutOrder(files, workers: workers, stopOnError: stopOnError))
        let runner = self
        // The scheduler hands out the files (it puts heavy ones back), so this is the general form.
        WorkQueue.drain(workers: workers) {
            stopped.load(ordering: .relaxed) ? nil : scheduler.take()
        } body: { index in
            let item: BatchItem
            switch plannedOutputs[index] {
            case .failure(let message):
                item = BatchItem(
                    input: files[index], outputs: [], error: message.description, warnings: [], megapixels: 0)
            case .success(let outputs):
                guard
                    let processed = runner.process(
                        files[index], index: index, outputs: outputs, threads: rowThreads, scheduler: scheduler)
                else { return }  // put back: another heavy decode is in flight
                item = processed
            }
            if runner.stopOnError, !item.succeeded { stopped.store(true, ordering: .relaxed) }
            results.withLock { $0[index] = item }
            onItem?(item)
            let finished = done.add(1, ordering: .relaxed).newValue
            progress?(finished, files.count)
        }
        let items = results.withLock { $0.compactMap { $0 } }  // nil: not started (stopOnError)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return BatchReport(items: items, wallSeconds: seconds)
    }

    /// The order files are handed to workers in: largest first, so a big file does not start
    /// last and keep one worker busy while the others idle; submission order with one worker
    /// (nothing to balance) or with `stopOnError` ("stop at the first failure" means the first
    /// in the list).
    static func handOutOrder(_ files: [String], workers: Int, stopOnError: Bool) -> [Int] {
        workers == 1 || stopOnError ? Array(files.indices) : BatchScheduler.largestFirst(files)
    }

    /// Reads, decodes, resizes, encodes and writes one file; nil when the file is memory-heavy
    /// to decode and the scheduler put it back for later.
    private func process(
        _ file: String, index: Int, outputs: [(Int, String)], threads: Int, scheduler: BatchScheduler
    ) -> BatchItem? {
        var megapixels = 0.0
        var deadline = request.decode.limits.deadline()
        do {
            let data = try preloaded[file] ?? FileIO.read(file, maxBytes: request.decode.limits.maxFileBytes)
            // The header is read once, here, and passed down (estimate, render, decoder).
            let source = try ImageSource(data, path: file)
            let pipeline = ThumbnailPipeline(request: request, encoding: encoding)
            let heavy = pipeline.isHeavy(source)
            if heavy && !scheduler.claimHeavy(index) { return nil }
            defer { if heavy { scheduler.releaseHeavy() } }
            // Time spent waiting for the heavy slot (another file's decode) does not count.
            if heavy { deadline = request.decode.limits.deadline() }
            try deadline.check(path: file)
            // Encode everything first, so a failure leaves no output of this file behind; the
            // deadline is checked after the last encode: once writing starts, it finishes.
            let result = try pipeline.run(
                source, threads: threads, deadline: deadline, outputPaths: outputs.map(\.1),
                spareSlot: heavy ? nil : scheduler.slot)
            megapixels = Double(result.header.width * result.header.height) / 1e6
            let encoded = zip(result.outputs, outputs).map { output, planned in
                (
                    OutputFile(
                        path: planned.1, scale: output.scale, width: output.width, height: output.height,
                        bytes: output.bytes.count),
                    output.bytes
                )
            }
            let succeeded = BatchItem(succeeded: file, outputs: encoded.map(\.0), result: result)
            if let outputSink {
                for (_, bytes) in encoded { try outputSink(bytes) }
                return succeeded
            }
            var written: [String] = []
            do {
                for (output, bytes) in encoded {
                    try FileIO.writeAtomically(bytes, to: output.path, durable: durable, faults: writeFaults)
                    written.append(output.path)
                }
            } catch {
                // All of a file's outputs or none: remove the ones already in place.
                for path in written { try? FileManager.default.removeItem(atPath: path) }
                throw error
            }
            return succeeded
        } catch let error as DecodeError {
            return BatchItem(input: file, outputs: [], error: error.description, warnings: [], megapixels: megapixels)
        } catch let error as EncodeError {
            return BatchItem(input: file, outputs: [], error: error.description, warnings: [], megapixels: megapixels)
        } catch {
            return BatchItem(input: file, outputs: [], error: "\(file): \(error)", warnings: [], megapixels: megapixels)
        }
    }
}
