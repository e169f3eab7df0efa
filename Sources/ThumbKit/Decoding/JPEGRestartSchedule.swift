// SPDX-License-Identifier: Apache-2.0
/// Where a scan's restart markers fall: after every `interval` MCUs (0: none), numbered 0…7 in
/// turn. The scan loops ask it before each MCU.
struct JPEGRestartSchedule {
    /// What `beforeMCU` found.
    enum Step {
        /// Inside an interval: nothing to do.
        case within
        /// A restart marker was consumed: the caller resets its prediction state.
        case restarted
        /// The expected marker is not there.
        case failed
    }

    private let interval: Int
    private var toGo: Int
    private var next = 0

    /// The schedule of a decode that starts at restart interval `startingInterval` (0: the
    /// scan's start): the marker after it is RST(`startingInterval` mod 8).
    init(interval: Int, startingInterval: Int = 0) {
        self.interval = interval
        self.toGo = interval
        self.next = startingInterval & 7
    }

    /// Call before each MCU: at an interval's end, consumes the restart marker from `reader`.
    @inline(__always)
    mutating func beforeMCU(_ reader: inout JPEGBitReader) -> Step {
        guard interval > 0 else { return .within }
        var step = Step.within
        if toGo == 0 {
            guard reader.restart(expecting: next) else { return .failed }
            next = (next + 1) & 7
            toGo = interval
            step = .restarted
        }
        toGo -= 1
        return step
    }
}
