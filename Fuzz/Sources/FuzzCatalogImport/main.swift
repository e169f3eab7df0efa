import Foundation
import FuzzSupport
import ThumbKitCatalog

/// A scratch folder for this process: stand-in images the import files can name, and a catalog
/// created once and copied fresh for every input (so each run starts from the same state).
enum Workspace {
    static let root: String = {
        let root = NSTemporaryDirectory() + "thumbkit-fuzz-import-\(getpid())"
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
        // The pristine catalog every run copies.
        _ = try! CatalogStore(path: root + "/template.sqlite")
        atexit { try? FileManager.default.removeItem(atPath: Workspace.root) }
        return root
    }()

    /// A fresh copy of the pristine catalog.
    static func freshStore() -> CatalogStore {
        let fm = FileManager.default
        let path = root + "/run.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? fm.removeItem(atPath: path + suffix) }
        try! fm.copyItem(atPath: root + "/template.sqlite", toPath: path)
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
