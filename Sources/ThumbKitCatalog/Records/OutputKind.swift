// SPDX-License-Identifier: Apache-2.0
/// What an output image is for (the `outputs.kind` column).
public enum OutputKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A list-row thumbnail (fill).
    case list
    /// A detail-screen image (fit).
    case detail
    /// A rating strip drawn from the rating icons.
    case rating
    /// An app icon.
    case icon
}
