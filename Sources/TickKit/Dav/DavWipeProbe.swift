import Foundation

/// The probe of a calendar set aside as wiped (issue 44): does the server
/// hold items there again (another machine restored it, the phone added
/// one)? It must not send anything itself: an item this machine put there
/// since the wipe, uploaded by the probe, would hide the wipe from the other
/// machines, which would then take every item the wipe lost for the phone's
/// deletes. So the calendar's items wait in `<dav>/probe/<calendar>/` while
/// vdirsyncer, made to forget the calendar, only fetches; the items and
/// vdirsyncer's record (kept in `<dav>/probe-status/`: `--accept-empty`
/// needs it to delete on the server what the wipe emptied) go back either
/// way. A sync that stopped in between puts them back first
/// (``recoverProbes()``).
extension DavSync {
    var probePath: String { root + "/probe" }
    var probeStatusPath: String { root + "/probe-status" }

    /// Fetches what the server holds in the wiped calendar `c`, sending
    /// nothing. Returns vdirsyncer's outcome and whether it brought items.
    func probeWiped(_ c: String) throws(DavError) -> (outcome: Vdirsyncer.Outcome, fetched: Bool) {
        let fm = FileManager.default
        let dir = bridge.vdirPath + "/" + c
        let held = probePath + "/" + c
        do {
            try fm.createDirectory(atPath: probeStatusPath, withIntermediateDirectories: true)
            for ext in [".items", ".metadata"] where fm.fileExists(atPath: vdirsyncer.statusDirectory + "/" + c + ext) {
                try? fm.removeItem(atPath: probeStatusPath + "/" + c + ext)
                try fm.copyItem(atPath: vdirsyncer.statusDirectory + "/" + c + ext, toPath: probeStatusPath + "/" + c + ext)
            }
            try fm.createDirectory(atPath: held, withIntermediateDirectories: true)
            for name in bridge.itemNames(collection: c) {
                try? fm.removeItem(atPath: held + "/" + name)
                try fm.moveItem(atPath: dir + "/" + name, toPath: held + "/" + name)
            }
        } catch {
            try recoverProbes()
            throw DavError.io(path: held, reason: "\(error)")
        }
        vdirsyncer.forget(c)
        let outcome: Vdirsyncer.Outcome
        do {
            outcome = try vdirsyncer.runRetrying(["sync", "tick/" + c])
        } catch {
            try recoverProbes()
            throw error
        }
        let fetched = bridge.hasItems(collection: c)
        try recoverProbes()
        return (outcome, fetched)
    }

    /// Puts back every item a probe held (one the probe fetched under the
    /// same name stays: the join merges by change time) and vdirsyncer's
    /// record of the calendar as it was before the probe.
    func recoverProbes() throws(DavError) {
        let fm = FileManager.default
        for file in ((try? fm.contentsOfDirectory(atPath: probeStatusPath)) ?? []).sorted() {
            let target = vdirsyncer.statusDirectory + "/" + file
            do {
                try fm.createDirectory(atPath: vdirsyncer.statusDirectory, withIntermediateDirectories: true)
                if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
                try fm.moveItem(atPath: probeStatusPath + "/" + file, toPath: target)
            } catch {
                throw DavError.io(path: target, reason: "\(error)")
            }
        }
        try? fm.removeItem(atPath: probeStatusPath)
        guard let calendars = try? fm.contentsOfDirectory(atPath: probePath) else { return }
        for c in calendars.sorted() {
            let held = probePath + "/" + c
            let dir = bridge.vdirPath + "/" + c
            do {
                try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
                for name in try fm.contentsOfDirectory(atPath: held).sorted() {
                    if fm.fileExists(atPath: dir + "/" + name) {
                        try fm.removeItem(atPath: held + "/" + name)
                    } else {
                        try fm.moveItem(atPath: held + "/" + name, toPath: dir + "/" + name)
                    }
                }
                try fm.removeItem(atPath: held)
            } catch {
                throw DavError.io(path: held, reason: "\(error)")
            }
        }
        try? fm.removeItem(atPath: probePath)
    }
}
