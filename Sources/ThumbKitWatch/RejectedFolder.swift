// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// `<inbox>/.rejected/`: where files that failed go, each beside `<its name>.error.txt` saying
/// why. Nothing here is ever deleted, and the watcher never looks inside (it is a dot-folder).
struct RejectedFolder: Sendable {
    /// The inbox folder.
    let inbox: String
    /// The rename that moves a file in without replacing anything (tests plant files through it).
    var renaming: any NoReplaceRenaming = SystemNoReplaceRename()

    /// What a note's name adds to its file's name.
    static let noteSuffix = ".error.txt"

    /// `<inbox>/.rejected`.
    var folder: String { inbox + "/" + InboxLayout.rejectedFolder }

    /// Moves the file at `path` into the folder as `name` (or `<stem> (2).<ext>`, … when that
    /// is taken) and writes `<that name>.error.txt`, which starts with `<origin>: <reason>`.
    /// Returns the new path.
    ///
    /// The file is moved first and the reason written second: a crash between the two leaves
    /// the file in `.rejected/` without its note (the catalog still has the reason), never a
    /// note for a file that is still in the inbox.
    ///
    /// - Throws: `WatchError.io` when the folder cannot be made or the file cannot be moved (it
    ///   then stays where it is).
    func reject(_ path: String, name: String, reason: String, origin: String, sha256: String) throws(WatchError)
        -> String
    {
        if let why = FileIO.makeFolders(folder) {
            throw .io(path: folder, reason: "cannot create the rejected folder: \(why)")
        }
        // A name found free may be taken before the move: the move then fails instead of
        // replacing what appeared, and the next free name is tried.
        var target = freeName(for: name)
        var attempts = 1
        while !(try FileMover.moveNew(path, to: target, renaming: renaming)) {
            guard attempts < 100 else {
                throw .io(path: path, reason: "cannot move to \(folder): every name tried was taken")
            }
            attempts += 1
            target = freeName(for: name)
        }
        writeNote(for: target, origin: origin, reason: reason, sha256: sha256)
        return target
    }

    /// Finishes what a watcher killed inside `reject` left behind: its temporary note files go,
    /// and each file here without a note gets one, from `known(sha256)` (the catalog's record of
    /// the failure: where the file came from and why) or saying the reason was lost. Returns the
    /// names of the files whose notes were written.
    func repairNotes(known: (String) -> (origin: String, reason: String)?) -> [String] {
        _ = FileIO.removeStaleTemporaries(in: folder)
        guard let names = InputCollector.names(in: folder) else { return [] }  // Names as bytes.
        let present = Set(names.map(FilePathKey.init))  // Bytes: an NFD name's note is not an NFC name's.
        var repaired: [String] = []
        for name in names.sorted()
        where !name.hasPrefix(".") && !name.hasSuffix(".error.txt")
            && !present.contains(FilePathKey(name + Self.noteSuffix))
        {
            let path = folder + "/" + name
            let sha256 = (try? ContentHash.sha256(ofFileAt: path)) ?? ""
            let failure = known(sha256)
            writeNote(
                for: path, origin: failure?.origin ?? name,
                reason: failure?.reason ?? "the reason was lost: the watcher stopped before writing this note",
                sha256: sha256)
            repaired.append(name)
        }
        return repaired
    }

    /// Writes `<path>.error.txt`. A note that cannot be written is not worth failing over: the
    /// file is safe, and the event line and the catalog both carry the reason.
    private func writeNote(for path: String, origin: String, reason: String, sha256: String) {
        var note = "\(PathBytes.display(origin)): \(reason)\n"
        if !sha256.isEmpty { note += "sha256: \(sha256)\n" }
        note += "rejected: \(Timestamp.string(from: Date())) by thumbkit watch\n"
        try? FileIO.writeAtomically(Array(note.utf8), to: path + ".error.txt")
    }

    /// `<folder>/<name>`, or the first of `<stem> (2).<ext>`, `<stem> (3).<ext>`, … for which
    /// neither the file nor its note exists. Each name leaves room for `.error.txt` (written
    /// atomically) within the 255-byte limit (``DerivedName``), so a long name still gets its note.
    private func freeName(for name: String) -> String {
        let (stem, ext) = InboxLayout.splitExtension(name)
        let limit = DerivedName.maxAtomicBytes - Self.noteSuffix.utf8.count
        var candidate = folder + "/" + DerivedName.fit(stem: stem, ext: ext, limit: limit)
        var number = 2
        while FileMover.isTaken(candidate) || FileMover.isTaken(candidate + Self.noteSuffix) {
            candidate = folder + "/" + DerivedName.fit(stem: stem, suffix: " (\(number))", ext: ext, limit: limit)
            number += 1
        }
        return candidate
    }
}
