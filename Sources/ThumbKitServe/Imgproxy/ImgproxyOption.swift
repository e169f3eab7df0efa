// SPDX-License-Identifier: Apache-2.0
/// One `name:arg:arg…` segment of a processing URL or a preset, split but not yet interpreted.
package struct ImgproxyOption: Sendable, Hashable {
    package let name: String
    package let arguments: [String]

    package init(name: String, arguments: [String]) {
        self.name = name
        self.arguments = arguments
    }

    /// Splits a segment on `:`; nil when it has no `:` (in a URL, that segment starts the source).
    init?(segment: some StringProtocol) {
        let pieces = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count > 1 else { return nil }
        name = String(pieces[0])
        arguments = pieces[1...].map { String($0) }
    }
}
