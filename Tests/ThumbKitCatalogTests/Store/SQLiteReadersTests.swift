// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// A writable SQLite store reads on read-only WAL connections of its own (`SQLiteReaders`):
/// a read on one thread never waits for a write transaction on another, a read inside a write
/// is part of it, nested reads share one snapshot, and closing still leaves no `-wal` behind.
struct SQLiteReadersTests {
    /// Runs `body` on a thread of its own; returns its result, or nil if it has not finished
    /// within `seconds`.
    static func onThread<T: Sendable>(within seconds: Double, _ body: @escaping @Sendable () throws -> T) -> T? {
        let result = Locked<T?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            result.withLock { $0 = try? body() }
            finished.signal()
        }
        guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }

    @Test func aReadDoesNotWaitForAnotherThreadsWrite() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        try store.write { try $0.addBug(title: "Moth") }
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = DispatchGroup()
        writer.enter()
        Thread.detachNewThread {
            defer { writer.leave() }
            try? store.write { tx in
                try tx.addBug(title: "Wasp")
                inside.signal()
                _ = release.wait(timeout: .now() + 60)
            }
        }
        inside.wait()
        // Before: the read queued behind the writer's lock until the write ended.
        let during = Self.onThread(within: 20) { try store.read { try $0.bugs().map(\.title) } }
        release.signal()
        writer.wait()
        #expect(during == ["Moth"])  // finished while the write was open, and saw the last commit
        #expect(try store.read { try $0.bugs().map(\.title) } == ["Moth", "Wasp"])
    }

    @Test func aReadInsideAWriteSeesItsChanges() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let seen = try store.write { tx in
            try tx.addBug(title: "Moth")
            return try store.read { try $0.bugs().map(\.title) }
        }
        #expect(seen == ["Moth"])
    }

    @Test func nestedReadsShareOneSnapshot() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        try store.write { try $0.addBug(title: "Moth") }
        let (outer, inner) = try store.read { tx -> ([String], [String]?) in
            let outer = try tx.bugs().map(\.title)
            // Committed by another thread after the outer read's snapshot began.
            let committed = Self.onThread(within: 20) { try store.write { try $0.addBug(title: "Wasp") } }
            #expect(committed != nil)
            return (outer, try store.read { try $0.bugs().map(\.title) })
        }
        #expect(outer == ["Moth"])
        #expect(inner == ["Moth"])
        #expect(try store.read { try $0.bugs().map(\.title) } == ["Moth", "Wasp"])
    }

    @Test func closingAfterReadsOnSeveralThreadsRemovesTheLog() throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("thumbkit.sqlite")
        let store = try workspace.store()
        try store.write { tx in for i in 0..<20 { try tx.addBug(title: "Bug \(i)") } }
        // Two readers open at once: each thread holds its read until both are inside.
        let both = DispatchGroup()
        both.enter()
        both.enter()
        let counts = Locked<[Int]>([])
        let finished = DispatchGroup()
        for _ in 0..<2 {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                let count = try? store.read { tx -> Int in
                    both.leave()
                    _ = both.wait(timeout: .now() + 20)
                    return try tx.bugs().count
                }
                counts.withLock { $0.append(count ?? -1) }
            }
        }
        finished.wait()
        #expect(counts.withLock { $0 } == [20, 20])
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(throws: CatalogError.self) { try store.read { try $0.bugs() } }
    }
}
