// SPDX-License-Identifier: Apache-2.0
extension CatalogError {
    /// The one wording for a file that is not there, used by every catalog command: the same
    /// words `thumb` prints for a missing input (`<path>: no such file or directory`), plus an
    /// optional hint in parentheses.
    public static func missingFile(_ path: String, hint: String? = nil) -> CatalogError {
        .notFound(path: path, reason: "no such file or directory" + (hint.map { " (\($0))" } ?? ""))
    }
}
