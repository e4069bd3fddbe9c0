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

    /// A lock that timed out closed its descriptor, and then its `deinit`
    /// closed the same number again: by then another thread's file (an
    /// index, a temp file being written). Files another thread holds open
    /// stay open however many locks time out.
    @Test func aTimedOutLockClosesOnlyItsOwnDescriptor() throws {
        let path = tempPath()
        let holder = try FileLock(path: path, timeout: 1)
        defer { holder.unlock() }
        let stop = SharedFlag()
        let lost = SharedFlag()
        let victim = Thread {
            while !stop.isSet {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                for _ in 0..<50 where fcntl(fd, F_GETFD) == -1 { lost.set() }
                if close(fd) != 0 { lost.set() }
            }
        }
        victim.start()
        for _ in 0..<20000 { _ = try? FileLock(path: path, timeout: 0) }
        stop.set()
        while !victim.isFinished { usleep(1_000) }
        #expect(!lost.isSet, "a descriptor the other thread held was closed under it")
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

/// A flag two threads share.
final class SharedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
