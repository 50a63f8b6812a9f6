import Foundation
import PlumbJSON

#if canImport(Glibc)
import Glibc
#endif

/// Learner files under `STATE/learners/ID.json` and the room's secrets in `STATE/room.json`,
/// readable by the owner only. Every file is written whole to a temporary file, flushed to disk
/// and renamed over the old one (a crash leaves the old or the new, never half). Every file read
/// back is checked: one that cannot be read whole is reported with its path, kept beside as
/// `NAME.corrupt`, and what could be read of it is kept; none can stop the room.
struct RoomStore: Sendable {
    let directory: URL
    /// Says what was wrong with a file, with its path (the teacher's terminal shows it).
    let report: @Sendable (String) -> Void

    /// Files larger than this are not read (a learner's file is about 10 KiB per exercise).
    static let maxFileBytes = 64 * 1024 * 1024

    var learnersDirectory: URL { directory.appendingPathComponent("learners") }

    func prepare() throws {
        try FileManager.default.createDirectory(at: learnersDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    struct Secrets: Codable, Sendable {
        var room: String
        var teacher: String
    }

    /// The room's token and the teacher's key: kept, so that a restarted server keeps its URLs.
    /// A damaged `room.json` is kept beside as `room.json.corrupt`, and whichever of the two it
    /// still holds is kept; only what cannot be read is made anew, and the report says which.
    /// - Throws: `ServerError` when `room.json` is there but cannot be read (it is never
    ///   replaced then), or cannot be written.
    func secrets() throws -> Secrets {
        let url = directory.appendingPathComponent("room.json")
        let bytes: [UInt8]
        switch Self.readFile(url) {
        case .missing:
            let made = Secrets(room: Secret.make(), teacher: Secret.make())
            try write(JSONEncoder().encode(made), to: url)
            return made
        case .unreadable(let why):
            throw ServerError(
                message: "cannot read \(url.path) (\(why)): the room's token and the teacher's key are kept there; fix it or choose another --state")
        case .bytes(let b): bytes = b
        }
        let (json, complete) = JSON.decodeSalvaging(bytes)
        let room = json?["room"]?.string.flatMap { Secret.isWellFormed($0) ? $0 : nil }
        var teacher = json?["teacher"]?.string.flatMap { Secret.isWellFormed($0) ? $0 : nil }
        if teacher == room { teacher = nil }
        if complete, let room, let teacher { return Secrets(room: room, teacher: teacher) }
        let made = Secrets(room: room ?? Secret.make(), teacher: teacher ?? Secret.make())
        let kept = moveAside(url)
        try write(JSONEncoder().encode(made), to: url)
        report(
            "\(url.path) was damaged (kept as \(kept)): "
                + (room == nil ? "the room's token could not be read, so learners need the new link; " : "the room's token was kept; ")
                + (teacher == nil ? "the teacher's key is new" : "the teacher's key was kept"))
        return made
    }

    /// Every learner whose file can be read, checked and repaired; the rest reported and set
    /// aside.
    func loadLearners(now: Double) -> [LearnerRecord] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: learnersDirectory.path)) ?? []).sorted()
        var loaded: [LearnerRecord] = []
        for name in names {
            let url = learnersDirectory.appendingPathComponent(name)
            // A temporary file left by a crash mid-write: the file it was for is whole.
            if name.hasPrefix("."), name.hasSuffix(".tmp") {
                try? FileManager.default.removeItem(at: url)
                continue
            }
            guard name.hasSuffix(".json") else { continue }
            if let record = loadLearner(url, name: name, now: now) { loaded.append(record) }
        }
        return loaded
    }

    private func loadLearner(_ url: URL, name: String, now: Double) -> LearnerRecord? {
        let bytes: [UInt8]
        switch Self.readFile(url) {
        case .missing: return nil
        case .unreadable(let why):
            report("\(url.path): \(why): skipped (the learner is not in the room until it can be read)")
            return nil
        case .bytes(let b): bytes = b
        }
        let (json, complete) = JSON.decodeSalvaging(bytes)
        guard let json, let (record, repairs) = LearnerRecord.read(json, now: now) else {
            report("\(url.path) is not a learner's state (no id and secret the room made): skipped, kept as \(moveAside(url))")
            return nil
        }
        guard name == record.id + ".json" else {
            report("\(url.path) holds learner \(record.id), not the one its name says: skipped, kept as \(moveAside(url))")
            return nil
        }
        if complete, repairs.isEmpty { return record }
        let kept = moveAside(url)
        let what = complete ? "out of range (\(repairs.joined(separator: ", ")))" : "cut short"
        do {
            try save(record)
            report("\(url.path) was \(what): kept \(record.name) with \(record.progress.count) exercises' progress; the original is \(kept)")
        } catch {
            report("\(url.path) was \(what) and cannot be written again (\(error)): \(record.name) is kept until the room stops")
        }
        return record
    }

    /// Writes a learner's file.
    /// - Throws: `ServerError` when the id is not one the room makes (no file name comes from a
    ///   client) or the file cannot be written.
    func save(_ learner: LearnerRecord) throws {
        guard Secret.isWellFormed(learner.id) else { throw ServerError(message: "learner id '\(learner.id)' is not one the room makes: not saved") }
        try write(Data(learner.fileText.utf8), to: learnersDirectory.appendingPathComponent(learner.id + ".json"))
    }

    /// What reading a state file found.
    enum FileRead {
        case missing
        case unreadable(String)
        case bytes([UInt8])
    }

    /// Reads a regular file of at most `maxFileBytes` (never a device, a pipe or a folder).
    static func readFile(_ url: URL) -> FileRead {
        var info = stat()
        guard lstat(url.path, &info) == 0 else {
            return errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return .unreadable("not a regular file") }
        guard info.st_size <= maxFileBytes else { return .unreadable("larger than \(maxFileBytes / 1024 / 1024) MiB") }
        guard let data = FileManager.default.contents(atPath: url.path) else { return .unreadable("cannot be read") }
        return .bytes(Array(data))
    }

    /// Renames a damaged file to `NAME.corrupt` (or `NAME.2.corrupt` … when taken), so that it
    /// is kept but not read again; the path it has now.
    private func moveAside(_ url: URL) -> String {
        for n in 1...100 {
            let aside = url.path + (n == 1 ? "" : ".\(n)") + ".corrupt"
            var info = stat()
            if lstat(aside, &info) == 0 { continue }
            if rename(url.path, aside) == 0 { return aside }
            break
        }
        return url.path + " (could not be renamed)"
    }

    /// Writes `data` to a temporary file beside `url`, flushes it to disk, renames it over `url`
    /// and flushes the folder, so that `url` is the old file or the new one after any crash.
    private func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/.\(url.lastPathComponent).\(Secret.make()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ServerError(message: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        let ok = data.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                written += n
            }
            return fsync(fd) == 0
        }
        let closed = close(fd) == 0
        guard ok, closed, rename(temporary, url.path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw ServerError(message: "cannot write \(url.path): \(why)")
        }
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }
}
