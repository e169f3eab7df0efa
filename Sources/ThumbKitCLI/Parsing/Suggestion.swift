// SPDX-License-Identifier: Apache-2.0
/// "Did you mean …": the known name closest to a mistyped one, by edit distance.
enum Suggestion {
    /// The candidate nearest to `typed` (Levenshtein distance, case-insensitive), when it is
    /// close enough to be a typo: at most 1 edit for names up to 4 letters, else at most 2, and
    /// fewer edits than the name has letters. Ties go to the first candidate.
    static func nearest(to typed: String, among candidates: [String]) -> String? {
        let word = Array(typed.lowercased())
        let limit = word.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, Array(candidate.lowercased()))
            if distance <= limit, distance < word.count, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The suggestion line for a usage error in `spec`, or nil: an unknown `--option` against
    /// the command's long options, an unknown command against the group's subcommands.
    static func line(for error: UsageError, in spec: CommandSpec) -> String? {
        switch error {
        case .unknownOption(let token) where token.hasPrefix("--"):
            let names = spec.options.filter { !$0.isHidden }.map(\.long) + ["help"]
            return nearest(to: String(token.dropFirst(2)), among: names).map { "Did you mean '--\($0)'?" }
        case .unknownCommand(let name):
            return nearest(to: name, among: spec.subcommands.map(\.name) + ["help"]).map { "Did you mean '\($0)'?" }
        default:
            return nil
        }
    }

    /// Levenshtein distance (insertions, deletions and substitutions each cost 1).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
