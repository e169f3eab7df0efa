// SPDX-License-Identifier: Apache-2.0
/// Decodes a `T` without failing its container: a bad element of a JSON list becomes
/// `.failure(reason)` while its neighbours still decode, so an import can report each bad record
/// by position and keep the good ones.
struct Lenient<T: Decodable>: Decodable {
    let result: Result<T, LenientFailure>

    init(from decoder: any Decoder) throws {
        let depth = decoder.codingPath.count
        do {
            result = .success(try T(from: decoder))
        } catch let error as DecodingError {
            result = .failure(LenientFailure(reason: Self.describe(error, droppingFirst: depth)))
        } catch {
            result = .failure(LenientFailure(reason: "\(error)"))
        }
    }

    /// A one-line, lower-case reason for a decoding error, naming the key inside the element.
    static func describe(_ error: DecodingError, droppingFirst depth: Int) -> String {
        func location(_ path: [any CodingKey]) -> String {
            let keys = path.dropFirst(depth).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "value" : "'\(keys.joined(separator: "."))'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing \(location(context.codingPath + [key]))"
        case .valueNotFound(_, let context):
            return "\(location(context.codingPath)) is null"
        case .typeMismatch(let type, let context):
            return "\(location(context.codingPath)) should be \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty,
                context.underlyingError != nil || context.debugDescription.contains("not valid JSON")
            {
                return "not valid JSON"
            }
            let place = context.codingPath.count > depth ? "\(location(context.codingPath)): " : ""
            return place + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type, is Float.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "a list" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a \(name.lowercased())"
        }
    }
}

/// Why one element did not decode.
struct LenientFailure: Error, Hashable {
    let reason: String
}
