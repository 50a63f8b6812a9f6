import Foundation

/// How one learner stands on one exercise.
struct ExerciseProgress: Codable, Sendable, Equatable {
    var passed = false
    /// The last failing check's message (with its marble diff), nil once passed.
    var lastMessage: String?
    var hintsUsed = 0
    var checks = 0
    /// When the learner first opened it, and when it first passed (seconds since 1970).
    var opened: Double?
    var passedAt: Double?
    /// The learner's text at the last check, shown again after a reload.
    var text: String?
}

/// A learner: who, their secret (what their browser keeps), and their progress. Kept one file
/// per learner under the state folder, named by the server-made id.
struct LearnerRecord: Codable, Sendable, Equatable {
    let id: String
    let secret: String
    var name: String
    var joined: Double
    var lastSeen: Double
    var progress: [String: ExerciseProgress] = [:]
    var playground: String?
}

/// Learner files under `STATE/learners/ID.json` and the room's secrets in `STATE/room.json`,
/// each written whole to a temporary file and renamed over the old one (a crash leaves the old
/// or the new, never half), readable by the owner only.
struct RoomStore: Sendable {
    let directory: URL

    var learnersDirectory: URL { directory.appendingPathComponent("learners") }

    func prepare() throws {
        try FileManager.default.createDirectory(at: learnersDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    struct Secrets: Codable, Sendable {
        var room: String
        var teacher: String
    }

    /// The room's token and the teacher's key: kept, so that a restarted server keeps its URLs.
    func secrets() throws -> Secrets {
        let url = directory.appendingPathComponent("room.json")
        if let data = try? Data(contentsOf: url), let secrets = try? JSONDecoder().decode(Secrets.self, from: data),
            secrets.room.count == 32, secrets.teacher.count == 32, secrets.room != secrets.teacher
        {
            return secrets
        }
        let made = Secrets(room: Secret.make(), teacher: Secret.make())
        try write(JSONEncoder().encode(made), to: url)
        return made
    }

    func loadLearners() -> [LearnerRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: learnersDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { name in
            guard let data = try? Data(contentsOf: learnersDirectory.appendingPathComponent(name)) else { return nil }
            return try? JSONDecoder().decode(LearnerRecord.self, from: data)
        }
    }

    func save(_ learner: LearnerRecord) throws {
        // The id is the server's own 32 hex digits, never a name a client chose.
        precondition(learner.id.allSatisfy(\.isHexDigit))
        try write(JSONEncoder().encode(learner), to: learnersDirectory.appendingPathComponent(learner.id + ".json"))
    }

    private func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(Secret.make()).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw ServerError(message: "cannot write \(temporary.path)")
        }
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw ServerError(message: "cannot write \(url.path)")
        }
    }
}
