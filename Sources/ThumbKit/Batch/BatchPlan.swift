// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// A whole batch planned before any file is decoded or written: each input's outputs (or why it
/// gets none), the earlier thumbnails left out, and the key that decides its shard.
///
/// The plan is made from the whole batch, then ``sharded(_:)``: every shard sees every input,
/// so inputs that meet (two outputs on one path, an output on another input, an earlier
/// thumbnail of another input) share one key and land in one shard, where they are refused (or
/// left out) exactly as in the unsharded run. So the N shards together are the unsharded batch.
package struct BatchPlan: Sendable {
    /// One input and what it will make.
    package struct Entry: Sendable {
        /// The input, as given (`-` for the standard input).
        package var file: String
        /// Its folder below the folder argument it was found in (fills `%d`).
        package var subfolder: String
        /// `(scale, path)` of each output, or why the file gets none.
        var outputs: Result<[(Int, String)], BatchRunner.PlanError>
        /// The key its shard is chosen by (see ``BatchPlan/sharded(_:)``).
        package var shardKey: String
    }

    /// The inputs to process, in the order given.
    package var entries: [Entry]
    /// Inputs left out because each is this template's output for another input of the batch
    /// (a thumbnail of an earlier run beside its source, as `-o 'p/tn_%s.jpg' p/` makes): taking
    /// them would thumbnail thumbnails (`tn_tn_x.jpg`) on every rerun.
    package var leftOut: [String]
    /// The shard key of each of `leftOut`.
    var leftOutKeys: [String]

    /// Only the inputs (and left-out inputs) whose key is in `shard`.
    package func sharded(_ shard: BatchShard) -> BatchPlan {
        let kept = zip(leftOut, leftOutKeys).filter { shard.contains(key: $0.1) }
        return BatchPlan(
            entries: entries.filter { shard.contains(key: $0.shardKey) }, leftOut: kept.map(\.0),
            leftOutKeys: kept.map(\.1))
    }
}

extension BatchRunner {
    /// Plans `files` (with their `subfolders`, see `InputCollector.Result`) before anything is read:
    ///
    /// 1. An input whose path is this template's output for another input, and which is not its
    ///    own output, is an earlier thumbnail: it is left out (and the other input's output
    ///    replaces it, as a rerun replaces its outputs). An input that would be its own output,
    ///    or that is another input's output through a hard link, is a source and stays one.
    /// 2. A file whose outputs meet another file's (or another input) is read first: when it is
    ///    not an image ThumbKit reads, that is what it is refused for, and it claims no output.
    /// 3. A file fails when one of its outputs would be any input of the batch (same device and
    ///    inode when the output exists, else the same resolved path) or an output already planned
    ///    for an earlier file. So a batch never overwrites a source, and never writes one
    ///    thumbnail over another.
    ///
    /// Each input's shard key is its first output's path below the template's output folder
    /// (`a/b/x.jpg` for `thumbs/%d/%s.jpg`), the same on every host wherever the folder is
    /// mounted; inputs that meet share the smallest key of their group's inputs that are not
    /// left out.
    package func plan(_ files: [String], subfolders: [String]? = nil) -> BatchPlan {
        let subfolders = subfolders ?? files.map { _ in "" }
        if outputSink != nil {
            let entries = zip(files, subfolders).map { file, subfolder in
                BatchPlan.Entry(
                    file: file, subfolder: subfolder, outputs: .success(request.scales.map { ($0, "-") }),
                    shardKey: "-")
            }
            return BatchPlan(entries: entries, leftOut: [], leftOutKeys: [])
        }
        let outputs = zip(files, subfolders).map { file, subfolder in
            let name = file == "-" ? Self.standardInputName : file
            return request.scales.map { ($0, template.path(for: name, subfolder: subfolder, scale: $0)) }
        }
        let resolvedOutputs = outputs.map { $0.map { Self.resolvedPath($0.1) } }
        let outputKeys = outputs.map { $0.map { FileKey($0.1) } }
        let resolvedInputs = files.map { $0 == "-" ? "-" : Self.resolvedPath($0) }
        var inputByPath: [String: Int] = [:]
        var inputByID: [FileKey: Int] = [:]
        for (index, file) in files.enumerated() where file != "-" {
            if inputByPath[resolvedInputs[index]] == nil { inputByPath[resolvedInputs[index]] = index }
            if let key = FileKey(file), inputByID[key] == nil { inputByID[key] = index }
        }
        var groups = UnionFind(count: files.count)

        // 1. Earlier thumbnails: another input's output, by path, and not their own output.
        var isLeftOut = [Bool](repeating: false, count: files.count)
        for index in files.indices {
            for path in resolvedOutputs[index] {
                guard let other = inputByPath[path], other != index else { continue }
                groups.union(index, other)
                if !resolvedOutputs[other].contains(resolvedInputs[other]) { isLeftOut[other] = true }
            }
        }
        let active = files.indices.filter { !isLeftOut[$0] }

        // 2. The files whose outputs meet something are read first.
        var firstClaim: [String: Int] = [:]
        var involved = Set<Int>()
        for index in active {
            for (path, key) in zip(resolvedOutputs[index], outputKeys[index]) {
                if let owner = firstClaim[path] {
                    groups.union(index, owner)
                    involved.formUnion([index, owner])
                } else {
                    firstClaim[path] = index
                }
                let source = key.flatMap { inputByID[$0] } ?? inputByPath[path]
                if let source, !isLeftOut[source] {
                    groups.union(index, source)
                    involved.insert(index)
                }
            }
        }
        var refused: [Int: DecodeError] = [:]
        for index in involved.sorted() {
            if let error = sniffFailure(files[index]) { refused[index] = error }
        }

        // 3. Claim the outputs in order.
        var owner: [String: String] = [:]
        var results: [Result<[(Int, String)], PlanError>] = []
        for index in active {
            let file = files[index]
            if let error = refused[index] {
                results.append(.failure(PlanError(error.description)))
                continue
            }
            results.append(
                Self.claim(
                    file, outputs: outputs[index], resolved: resolvedOutputs[index], keys: outputKeys[index],
                    owner: &owner
                ) { path, key in
                    let source = key.flatMap { inputByID[$0] } ?? inputByPath[path]
                    return source.flatMap { isLeftOut[$0] ? nil : files[$0] }
                })
        }

        // The shard keys: each group's smallest key among its inputs that are not left out.
        let ownKeys = outputs.map { Self.shardKey($0.first?.1 ?? "", root: template.outputRoot) }
        var groupKey: [Int: String] = [:]
        for index in files.indices {
            let root = groups.find(index)
            let candidate = isLeftOut[index] ? nil : ownKeys[index]
            if let candidate,
                groupKey[root].map({ PathBytes.bytes(candidate).lexicographicallyPrecedes(PathBytes.bytes($0)) })
                    ?? true
            {
                groupKey[root] = candidate
            }
        }
        let key = { (index: Int) in groupKey[groups.find(index)] ?? ownKeys[index] }
        let entries = zip(active, results).map { index, outputs in
            BatchPlan.Entry(file: files[index], subfolder: subfolders[index], outputs: outputs, shardKey: key(index))
        }
        let leftOut = files.indices.filter { isLeftOut[$0] }
        return BatchPlan(entries: entries, leftOut: leftOut.map { files[$0] }, leftOutKeys: leftOut.map(key))
    }

    /// Claims `file`'s outputs in `owner`, or says which earlier file or which input (`input`)
    /// one of them would overwrite.
    private static func claim(
        _ file: String, outputs: [(Int, String)], resolved: [String], keys: [FileKey?], owner: inout [String: String],
        input: (String, FileKey?) -> String?
    ) -> Result<[(Int, String)], PlanError> {
        for ((_, path), (resolvedPath, key)) in zip(outputs, zip(resolved, keys)) {
            if let other = owner[resolvedPath] {
                return .failure(PlanError("\(file): output \(path) would overwrite the thumbnail of \(other)"))
            }
            if let source = input(resolvedPath, key) {
                let what = source == file ? "the source itself" : "\(source), another input of this batch"
                return .failure(PlanError("\(file): output \(path) is \(what); nothing written"))
            }
        }
        for path in resolved { owner[path] = file }
        return .success(outputs)
    }

    /// `path` below the template's output folder `root` (the whole path when it is not below it).
    static func shardKey(_ path: String, root: String) -> String {
        if root == "." { return path.hasPrefix("./") ? String(path.dropFirst(2)) : path }
        let prefix = root == "/" ? "/" : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Why `file` is not an image ThumbKit reads, from its first bytes (nil when it may be one):
    /// unreadable, empty or of another format.
    func sniffFailure(_ file: String) -> DecodeError? {
        do throws(DecodeError) {
            let head: [UInt8]
            if let bytes = preloaded[file] {
                head = Array(bytes.prefix(Self.sniffBytes))
            } else {
                head = try FileIO.readPrefix(file, count: Self.sniffBytes)
            }
            _ = try ImageDecoders.format(of: head, path: file)
            return nil
        } catch {
            return error
        }
    }

    /// Enough of a file to tell its format (an ISO-BMFF `ftyp` box lists its brands within this).
    static let sniffBytes = 4096
}

/// Disjoint sets of indices, with path halving.
struct UnionFind {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func find(_ index: Int) -> Int {
        var i = index
        while parent[i] != i {
            parent[i] = parent[parent[i]]
            i = parent[i]
        }
        return i
    }

    mutating func union(_ a: Int, _ b: Int) {
        let (ra, rb) = (find(a), find(b))
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
}
