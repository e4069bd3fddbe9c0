import Foundation
import Testing
@testable import TickKit

/// The store lock: turns are counted in the lock file, and a waiter gives up
/// only when one holder keeps the lock past the timeout.
@Suite struct FileLockTests {
    func tempPath() -> String {
        NSTemporaryDirectory() + "tick-lock-\(UUID().uuidString)/store.lock"
    }

    @Test func everyTurnIsCountedInTheLockFile() throws {
        let path = tempPath()
        for _ in 0..<3 {
            let lock = try FileLock(path: path, timeout: 1)
            lock.unlock()
        }
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.count == 8)
        #expect(bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } == 3)
    }

    @Test func aHolderThatNeverLetsGoTimesTheWaiterOut() throws {
        let path = tempPath()
        let holder = try FileLock(path: path, timeout: 1)
        defer { holder.unlock() }
        #expect(throws: StoreError.self) { try FileLock(path: path, timeout: 0.2) }
        do {
            _ = try FileLock(path: path, timeout: 0.05)
            Issue.record("the lock was taken twice")
        } catch {
            #expect(error.localizedDescription.contains("held the store lock"))
        }
    }

    @Test func aWaiterGetsTheLockOnceTheHolderLetsGo() async throws {
        let path = tempPath()
        let holder = try FileLock(path: path, timeout: 1)
        let waiter = Task.detached { () throws -> Bool in
            let lock = try FileLock(path: path, timeout: 30)
            lock.unlock()
            return true
        }
        holder.unlock()
        #expect(try await waiter.value)
    }
}
