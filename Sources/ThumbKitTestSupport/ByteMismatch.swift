// SPDX-License-Identifier: Apache-2.0
/// Where two byte arrays first differ, as a short description (nil when they are equal).
///
/// Use as `#expect(firstMismatch(a, b) == nil)`: comparing whole pixel arrays with `==` inside
/// `#expect` makes a failure print (and diff) megabytes of numbers.
public func firstMismatch(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
    if actual.count != expected.count { return "\(actual.count) bytes, expected \(expected.count)" }
    guard let index = actual.indices.first(where: { actual[$0] != expected[$0] }) else { return nil }
    let differing = zip(actual, expected).filter { $0 != $1 }.count
    return
        "byte \(index) (pixel \(index / 4)) is \(actual[index]), expected \(expected[index]); \(differing) bytes differ"
}
