// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// A ``NoReplaceRenaming`` for tests that try to make `FileIO.writeNew` destroy a foreign file:
/// `plant` runs in the window after the temporary file is complete and before it is published
/// (it may put a file or a link at the target name there), and then the rename is either the
/// system's (`renameat2(…, RENAME_NOREPLACE)`) or, with `supportsNoReplace: false`, fails with
/// `EINVAL` as on a file system without that flag, which sends `writeNew` to its `link` fallback.
package struct PlantingRename: NoReplaceRenaming {
    /// Called with (the temporary file, the target name) before the rename.
    let plant: @Sendable (_ temporary: String, _ target: String) -> Void
    let supportsNoReplace: Bool
    /// The temporary files the rename was asked to publish, in order.
    private let seen = Locked<[String]>([])

    package init(
        supportsNoReplace: Bool = true,
        plant: @escaping @Sendable (_ temporary: String, _ target: String) -> Void = { _, _ in }
    ) {
        self.plant = plant
        self.supportsNoReplace = supportsNoReplace
    }

    /// The temporary files the rename was asked to publish, in order.
    package var temporaries: [String] { seen.withLock { $0 } }

    package func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        seen.withLock { $0.append(from) }
        plant(from, to)
        guard supportsNoReplace else {
            errno = EINVAL
            return -1
        }
        return SystemNoReplaceRename().renameNoReplace(from, to)
    }
}
