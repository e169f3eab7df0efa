// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// The read-only connections beside a writable SQLite store's one writer, as GRDB's
/// `DatabasePool` keeps them: in WAL mode a reader sees the last commit and never waits for a
/// write in progress, so one lane's `read` does not queue behind another lane's commit on the
/// writer's lock.
///
/// A thread gets one reader for all its nested reads (they become savepoints of one
/// transaction, so one snapshot, as on the writer). At most `limit` readers are opened; a
/// read finding them all busy, or the pool closed, gets nil from `checkout` and runs on the
/// writer's connection as before. `close` closes every reader, waiting for one in use, so that
/// the writer, closed after them, is the last connection and removes the `-wal`.
final class SQLiteReaders: Sendable {
    private let path: String
    private let busyTimeoutMilliseconds: Int32
    private let limit: Int

    /// Guards the pool's bookkeeping: the idle readers, which reader each thread holds and how
    /// deeply, every reader ever opened (to close them), and whether `close` was called. Held
    /// only for that bookkeeping, never during a read.
    private let state = Locked(State())

    private struct State {
        var idle: [GuardedConnection] = []
        var held: [UInt: (reader: GuardedConnection, depth: Int)] = [:]
        var opened: [GuardedConnection] = []
        var closed = false
    }

    init(path: String, busyTimeoutMilliseconds: Int32, limit: Int = 4) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.limit = limit
    }

    /// The calling thread's reader: the one it already holds (a nested read), an idle one, or
    /// a new one; nil when the pool is closed, all `limit` are in use, or one cannot be opened.
    /// Every reader returned goes back with `checkin` on the same thread.
    func checkout() -> GuardedConnection? {
        let thread = UInt(pthread_self())
        enum Next {
            case reader(GuardedConnection)
            case open
            case none
        }
        let next: Next = state.withLock { state in
            if state.closed { return .none }
            if let held = state.held[thread] {
                state.held[thread] = (held.reader, held.depth + 1)
                return .reader(held.reader)
            }
            if let reader = state.idle.popLast() {
                state.held[thread] = (reader, 1)
                return .reader(reader)
            }
            return state.opened.count < limit ? .open : .none
        }
        switch next {
        case .reader(let reader): return reader
        case .none: return nil
        case .open:
            // Opened outside the bookkeeping lock; counted only once it is open.
            guard let connection = try? open() else { return nil }
            let reader = GuardedConnection(connection)
            let kept = state.withLock { state -> Bool in
                guard !state.closed, state.opened.count < limit else { return false }
                state.opened.append(reader)
                state.held[thread] = (reader, 1)
                return true
            }
            if !kept { reader.close() }
            return kept ? reader : nil
        }
    }

    /// Gives back the reader `checkout` returned on this thread (idle again once the thread's
    /// outermost read ends).
    func checkin(_ reader: GuardedConnection) {
        let thread = UInt(pthread_self())
        state.withLock { state in
            guard let held = state.held[thread] else { return }
            if held.depth > 1 {
                state.held[thread] = (held.reader, held.depth - 1)
            } else {
                state.held[thread] = nil
                if !state.closed { state.idle.append(reader) }
            }
        }
    }

    /// Closes every reader (waiting for a read in progress on another thread to end); later
    /// `checkout`s return nil.
    func close() {
        let readers = state.withLock { state -> [GuardedConnection] in
            state.closed = true
            state.idle = []
            return state.opened
        }
        readers.forEach { $0.close() }
    }

    /// A read-only connection to the store's file, with the writer's settings that reads see.
    private func open() throws -> any CatalogConnection {
        let connection = try SQLiteConnection(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, access: .readOnly)
        try connection.execute("PRAGMA foreign_keys = ON")
        return connection
    }
}
