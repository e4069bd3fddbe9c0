import FoundationEssentials
import Glibc

/// The last bytes tick wrote (or saw and accepted) of each store file, kept
/// outside the store under the state directory (`written/<relative path>`),
/// with the store clock's time of that moment as the copy's modification time.
///
/// A store file that differs from its written copy was changed by another
/// route (an editor, git, Syncthing); comparing the two tells which fields of
/// which tasks changed, so they can be given change times (the version's
/// mtime) the first time tick sees them, before the file can travel
/// (Docs/MERGE.md §17). Merges never consult the copies: stamping is a step
/// of its own (``StoreWriter/stampHandEdits(_:)``, or the first step of a
/// command's write), so two machines that merge the same versions write the
/// same bytes.
public struct WrittenCopies: Sendable {
    public let location: StoreLocation
    /// The time recorded with each copy (the store's clock).
    let clock: @Sendable () -> Date

    public init(location: StoreLocation, clock: @escaping @Sendable () -> Date = Date.init) {
        self.location = location
        self.clock = clock
    }

    /// A written copy: its bytes, decoded, and when tick wrote or saw them.
    struct Copy {
        var bytes: [UInt8]
        var file: TaskFile
        var savedAt: Date
    }

    /// Where the copy of `kind` is kept.
    public func path(of kind: FileKind) -> String {
        PathString.appending(PathString.appending(location.stateDirectory, "written"), kind.relativePath)
    }

    /// The copy, or nil when tick has not written the file on this machine.
    public func bytes(of kind: FileKind) -> [UInt8]? {
        (try? AtomicFile.read(path: path(of: kind)))??.bytes
    }

    /// How many earlier copies of a file are kept besides the last one
    /// (`<path>~1`, `<path>~2`, each with its own time): a Syncthing conflict
    /// copy is this machine's own replaced version when it descends from one of
    /// them, even after the version that replaced it was seen (Docs/MERGE.md §18).
    static let earlier = 2

    /// Where the `n`th copy of `kind` is kept (0: the last one).
    func path(of kind: FileKind, earlier n: Int) -> String {
        n == 0 ? path(of: kind) : path(of: kind) + "~\(n)"
    }

    /// Records what tick just wrote (or saw, with nothing to stamp), at the
    /// clock's time; the copy it replaces becomes the first earlier one. A
    /// cache: failures are ignored (the next hand edit is then not stamped,
    /// and merges by its task's times).
    public func save(_ bytes: [UInt8], for kind: FileKind) {
        let target = path(of: kind)
        try? PrivateFiles.createDirectory(PathString.deletingLastComponent(target))
        if let old = self.bytes(of: kind), old != bytes {
            for n in stride(from: Self.earlier, to: 0, by: -1) {
                rename(path(of: kind, earlier: n - 1), path(of: kind, earlier: n))
            }
        }
        guard (try? AtomicFile.write(bytes, to: target, mode: UInt32(PrivateFiles.fileMode), durable: false)) != nil else { return }
        try? FileManager.default.setAttributes([.modificationDate: clock()], ofItemAtPath: target)
    }

    /// Forgets the copies (the file was removed).
    public func remove(_ kind: FileKind) {
        for n in 0...Self.earlier { unlink(path(of: kind, earlier: n)) }
    }

    /// Gives change times to the fields of `file`'s tasks that differ from the
    /// written copy while their change time is the copy's: they were changed
    /// by hand (or by a tool that does not record change times) at `at`, the
    /// version's modification time. Only a version that descends from the copy
    /// by hand only is stamped (``isOwnVersion(_:copy:)``: it carries exactly
    /// the copy's stamps); one that carries other stamps is another machine's
    /// version a sync tool delivered, whose differences this machine cannot
    /// attribute (a value the copy holds with no stamp of its own may be the
    /// one that changed), so it merges by its own stamps (Docs/MERGE.md §17).
    /// A version older than the copy (`at` not later than when tick wrote or
    /// saw it) is not an edit made since: a stale version delivered by a sync
    /// tool; it is left as it is.
    ///
    /// - Returns: true when a task was stamped.
    @discardableResult
    public func stampHandEdits(in file: inout TaskFile, bytes: [UInt8], at: Date) -> Bool {
        stampHandEdits(in: &file, bytes: bytes, at: at, copy: self.copy(of: file.kind)) > 0
    }

    /// The copy and its decoded file, nil when missing or unreadable.
    func copy(of kind: FileKind) -> Copy? {
        copy(of: kind, earlier: 0)
    }

    /// The last copy, then the earlier ones kept (those that can be read).
    func copies(of kind: FileKind) -> [Copy] {
        (0...Self.earlier).compactMap { copy(of: kind, earlier: $0) }
    }

    private func copy(of kind: FileKind, earlier n: Int) -> Copy? {
        let target = path(of: kind, earlier: n)
        guard let (bytes, stamp) = try? AtomicFile.read(path: target),
              let file = try? TaskFileDecoder(bytes: bytes, path: target, kind: kind, fallbackDate: Date(timeIntervalSince1970: 0)).decode()
        else { return nil }
        return Copy(bytes: bytes, file: file, savedAt: stamp.modificationDate)
    }

    /// The written copy (the last one or an earlier one kept) that `version`,
    /// a Syncthing conflict copy with these `bytes`, descends from by hand only
    /// (``isOwnVersion(_:copy:)``) and was saved after: nil for a copy from
    /// another machine.
    ///
    /// The copies are tried from the last one back, and a version that is one
    /// of them byte for byte is what tick wrote or saw here: it holds nothing
    /// tick has not seen, so it has no origin to be stamped against (nil). An
    /// earlier copy may carry the same stamps with other values (a merge that
    /// kept a value by value order changes no stamp), and taking that one for
    /// the origin would stamp tick's own write as a hand edit made at the
    /// copy's mtime (fan-out seed 101683: an older title, kept by value
    /// order, stamped at a sync's time, beat a later hand edit everywhere).
    func ownOrigin(of version: TaskFile, bytes: [UInt8], at: Date, among copies: [Copy]) -> Copy? {
        for copy in copies {
            if copy.bytes == bytes { return nil }
            if at > copy.savedAt, isOwnVersion(version, copy: copy) { return copy }
        }
        return nil
    }

    /// True when `version` (the file as it is now, or a Syncthing conflict
    /// copy of it) is this machine's own: it descends from `copy`, what tick
    /// wrote or saw here, by hand only. Every change tick makes stamps it,
    /// and a hand edit changes values but no stamp, so such a version
    /// carries exactly the written copy's stamps: the file's `modifiedAt` and
    /// tombstones, and the `createdAt`, `modifiedAt` and `changed` of every
    /// task both hold (tasks added or removed by hand do not count). A
    /// version from another machine carries that machine's stamps
    /// (Docs/MERGE.md §17, §18); it is merged by them alone, never stamped here.
    func isOwnVersion(_ version: TaskFile, copy: Copy?) -> Bool {
        guard let copy else { return false }
        let written = copy.file
        guard MergeClock.seconds(version.modifiedAt) == MergeClock.seconds(written.modifiedAt),
              Self.seconds(version.deleted) == Self.seconds(written.deleted) else { return false }
        var previous: [UUID: TaskItem] = [:]
        for task in written.tasks where previous[task.id] == nil { previous[task.id] = task }
        for task in version.tasks {
            guard let before = previous[task.id] else { continue }
            guard MergeClock.seconds(task.createdAt) == MergeClock.seconds(before.createdAt),
                  MergeClock.seconds(task.modifiedAt) == MergeClock.seconds(before.modifiedAt),
                  task.changed.mapValues(MergeClock.seconds) == before.changed.mapValues(MergeClock.seconds)
            else { return false }
        }
        return true
    }

    private static func seconds(_ tombstones: [Tombstone]) -> [UUID: Int64] {
        var out: [UUID: Int64] = [:]
        for t in tombstones { out[t.id] = max(out[t.id] ?? .min, MergeClock.seconds(t.at)) }
        return out
    }

    /// ``stampHandEdits(in:bytes:at:)`` with the copy already read (a writer
    /// that stamps several versions in a row decodes it once). Returns how
    /// many tasks were stamped.
    @discardableResult
    func stampHandEdits(in file: inout TaskFile, bytes: [UInt8], at: Date, copy: Copy?) -> Int {
        guard let copy, copy.bytes != bytes, at > copy.savedAt, isOwnVersion(file, copy: copy) else { return 0 }
        var previous: [UUID: TaskItem] = [:]
        for task in copy.file.tasks { previous[task.id] = task }
        var stamped = 0
        for i in file.tasks.indices {
            guard let before = previous[file.tasks[i].id] else { continue }
            let task = file.tasks[i]
            var any = false
            // A hand edit changes a value and leaves its change time as it was. A
            // value with an older change time came from a machine that had not
            // seen this one's change (Syncthing delivered its file): not an edit.
            for key in task.changedKeys(comparedTo: before)
            where MergeClock.seconds(task.changeTime(key)) == MergeClock.seconds(before.changeTime(key)) {
                file.tasks[i].changed[key] = TaskChange.stamp(now: at, after: before.changeTime(key))
                if file.tasks[i].modifiedAt < file.tasks[i].changed[key] ?? at {
                    file.tasks[i].modifiedAt = file.tasks[i].changed[key] ?? at
                }
                any = true
            }
            if any { stamped += 1 }
        }
        return stamped
    }
}
