import Foundation

/// The last bytes tick wrote (or merged into) each store file, kept outside
/// the store under the state directory (`written/<relative path>`).
///
/// A store file that differs from its written copy was changed by another
/// route (an editor, git, Syncthing); comparing the two tells which fields of
/// which tasks changed, so they can be given change times (the file's mtime)
/// before a merge relies on them (Docs/MERGE.md, "Hand edits").
public struct WrittenCopies: Sendable {
    public let location: StoreLocation

    public init(location: StoreLocation) {
        self.location = location
    }

    /// Where the copy of `kind` is kept.
    public func path(of kind: FileKind) -> String {
        ((location.stateDirectory as NSString).appendingPathComponent("written") as NSString)
            .appendingPathComponent(kind.relativePath)
    }

    /// The copy, or nil when tick has not written the file on this machine.
    public func bytes(of kind: FileKind) -> [UInt8]? {
        (try? AtomicFile.read(path: path(of: kind)))??.bytes
    }

    /// Records what tick just wrote. A cache: failures are ignored (the next
    /// hand edit is then only stamped by its file's time as a whole).
    public func save(_ bytes: [UInt8], for kind: FileKind) {
        let target = path(of: kind)
        try? PrivateFiles.createDirectory((target as NSString).deletingLastPathComponent)
        try? AtomicFile.write(bytes, to: target, mode: UInt32(PrivateFiles.fileMode), durable: false)
    }

    /// Forgets the copy (the file was removed).
    public func remove(_ kind: FileKind) {
        unlink(path(of: kind))
    }

    /// Gives change times to the fields of `file`'s tasks that differ from the
    /// written copy while their change time is the copy's: they were changed
    /// by hand (or by a tool that does not record change times) at `at`, the
    /// file's modification time.
    ///
    /// - Returns: true when a task was stamped.
    @discardableResult
    public func stampHandEdits(in file: inout TaskFile, bytes: [UInt8], at: Date) -> Bool {
        stampHandEdits(in: &file, bytes: bytes, at: at, copy: self.copy(of: file.kind))
    }

    /// The copy and its decoded file, nil when missing or unreadable.
    func copy(of kind: FileKind) -> (bytes: [UInt8], file: TaskFile)? {
        guard let bytes = self.bytes(of: kind),
              let file = try? TaskFileDecoder(bytes: bytes, path: path(of: kind), kind: kind, fallbackDate: Date(timeIntervalSince1970: 0)).decode()
        else { return nil }
        return (bytes, file)
    }

    /// ``stampHandEdits(in:bytes:at:)`` with the copy already read (a writer
    /// that stamps several versions in a row decodes it once).
    @discardableResult
    func stampHandEdits(in file: inout TaskFile, bytes: [UInt8], at: Date, copy: (bytes: [UInt8], file: TaskFile)?) -> Bool {
        guard let copy, copy.bytes != bytes else { return false }
        let old = copy.file
        var previous: [UUID: TaskItem] = [:]
        for task in old.tasks { previous[task.id] = task }
        var stamped = false
        for i in file.tasks.indices {
            guard let before = previous[file.tasks[i].id] else { continue }
            let task = file.tasks[i]
            // A hand edit changes a value and leaves its change time as it was. A
            // value with an older change time came from a machine that had not
            // seen this one's change (Syncthing delivered its file): not an edit.
            for key in task.changedKeys(comparedTo: before)
            where MergeClock.seconds(task.changeTime(key)) == MergeClock.seconds(before.changeTime(key)) {
                file.tasks[i].changed[key] = TaskChange.stamp(now: at, after: before.changeTime(key))
                if file.tasks[i].modifiedAt < file.tasks[i].changed[key] ?? at {
                    file.tasks[i].modifiedAt = file.tasks[i].changed[key] ?? at
                }
                stamped = true
            }
        }
        return stamped
    }
}
