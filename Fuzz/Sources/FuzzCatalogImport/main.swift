// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
import ThumbKitCatalog

/// A scratch folder for this process with stand-in images the import files can name (removed
/// at exit).
enum Workspace {
    static let root: String = {
        // tmpfs when there is one: SQLite's fsyncs there cost nothing.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        let root = base + "thumbkit-fuzz-import-\(getpid())"
        let fm = FileManager.default
        try? fm.removeItem(atPath: root)
        try! fm.createDirectory(atPath: root + "/data/img", withIntermediateDirectories: true)
        try! fm.createDirectory(atPath: root + "/data/icons", withIntermediateDirectories: true)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 0, 0]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 3, 0xFF, 0xD9]
        for (name, bytes) in [
            ("data/img/potato.jpg", jpeg), ("data/img/Chicken Marsala.png", png), ("data/img/Lasagna.jpeg", jpeg),
            ("data/icons/empty.png", png), ("data/icons/half.png", png), ("data/icons/full.png", png),
            ("data/logo.png", png), ("data/notes.txt", Array("not an image".utf8)),
        ] {
            _ = fm.createFile(atPath: root + "/" + name, contents: Data(bytes))
        }
        atexit { try? FileManager.default.removeItem(atPath: Workspace.root) }
        return root
    }()

    /// The pristine catalog every run starts from, created once (migrations are slow).
    static let template: [UInt8] = {
        let path = root + "/template.sqlite"
        do {
            let store = try! CatalogStore(path: path)
            _ = try! store.quickCheck()  // the store closes (and checkpoints) when it goes away
        }
        return [UInt8](FileManager.default.contents(atPath: path)!)
    }()

    /// A fresh copy of the pristine catalog. (Written with plain syscalls that retry EINTR:
    /// libFuzzer's timer signal interrupts Foundation's file copy, which does not retry.)
    static func freshStore() -> CatalogStore {
        let path = root + "/run.sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        template.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 && errno == EINTR { continue }
                precondition(n > 0, "cannot write \(path)")
                done += n
            }
        }
        close(fd)
        return try! CatalogStore(path: path)
    }
}

/// The catalog JSON import: decoding every record leniently, validation, path resolution,
/// then the transaction. Properties: no crash; the database stays sound; importing the same
/// bytes a second time adds nothing (the importer's documented idempotence).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogImport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let json = Data(FuzzInput.bytes(data, size))
    let store = Workspace.freshStore()
    let importer = CatalogImporter(store: store)
    let base = Workspace.root + "/data"
    guard (try? importer.importData(json, source: "fuzz.json", base: base)) != nil else { return 0 }
    let again = try! importer.importData(json, source: "fuzz.json", base: base)
    precondition(
        again.bugs.added == 0 && again.foods.added == 0 && again.categories.added == 0,
        "A second import of the same file must add nothing: \(again)")
    precondition(try! store.quickCheck().isEmpty, "The catalog must stay sound.")
    return 0
}

exit(FuzzInput.run(fuzzCatalogImport))
