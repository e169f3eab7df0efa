// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// The rating sidecar of a bug image: `bugs/<title>.json` holding `{"rating": 3.5}` (other keys
/// are ignored). The rating must be 0 to 5 in steps of 0.5.
public enum SidecarRating {
    /// The largest sidecar read; a rating needs a few bytes.
    public static let maxBytes = 64 * 1024

    /// The rating in the sidecar at `path`, nil when there is no such file.
    ///
    /// - Throws: `CatalogError.invalidDocument` (`<path>: rating 7 is not between 0 and 5 in
    ///   steps of 0.5`, `… not valid JSON`, `… has no "rating" number`), or `.io`.
    public static func read(at path: String) throws(CatalogError) -> Rating? {
        guard let stamp = FileStamp.of(path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw CatalogError.io(path: path, reason: "not a regular file")
            }
            return nil
        }
        guard stamp.size <= maxBytes else {
            throw CatalogError.invalidDocument(path: path, reason: "larger than \(maxBytes) bytes")
        }
        let data: Data
        do {
            data = Data(try FileIO.read(path, maxBytes: maxBytes))
        } catch .empty {
            data = Data()
        } catch {
            throw CatalogError.io(path: path, reason: "cannot read")
        }
        return try parse(data, path: path)
    }

    /// Parses sidecar JSON; `path` only names the file in errors.
    public static func parse(_ data: Data, path: String) throws(CatalogError) -> Rating {
        struct Sidecar: Decodable {
            var rating: Double?
        }
        let sidecar: Sidecar
        do {
            sidecar = try JSONDecoder().decode(Sidecar.self, from: data)
        } catch DecodingError.dataCorrupted {
            throw CatalogError.invalidDocument(path: path, reason: "not valid JSON")
        } catch {
            throw CatalogError.invalidDocument(path: path, reason: "not a JSON object with a \"rating\" number")
        }
        guard let number = sidecar.rating else {
            throw CatalogError.invalidDocument(path: path, reason: "has no \"rating\" number")
        }
        do {
            return try Rating.validated(number, for: path)
        } catch {
            throw CatalogError.invalidDocument(path: path, reason: error.reason)
        }
    }
}
