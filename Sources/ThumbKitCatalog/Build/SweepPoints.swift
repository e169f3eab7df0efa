// SPDX-License-Identifier: Apache-2.0
/// Told between a sweep's walk, which holds no lock, and its removals under the catalog's write
/// lock (a seam: tests change the folder or the rows there; production passes none).
package protocol SweepPoints: Sendable {
    /// The walk found `candidates` (paths relative to the output folder).
    func walked(candidates: [String])
}
