import Foundation
import PlumbJSON

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
    /// The exercise the learner opened or checked last (the teacher's table judges "stuck" on it).
    var current: String?
}

extension ExerciseProgress {
    var json: JSON {
        var fields: [String: JSON] = ["passed": .bool(passed), "hintsUsed": .int(hintsUsed), "checks": .int(checks)]
        if let lastMessage { fields["lastMessage"] = .string(lastMessage) }
        if let opened { fields["opened"] = .double(opened) }
        if let passedAt { fields["passedAt"] = .double(passedAt) }
        if let text { fields["text"] = .string(text) }
        return .object(fields)
    }
}

extension LearnerRecord {
    /// The record as its file holds it: who it is first (id, secret, name, times), progress
    /// last, so that a file cut short still names its learner and their link keeps working.
    var fileText: String {
        var fields: [(String, JSON)] = [
            ("id", .string(id)), ("secret", .string(secret)), ("name", .string(name)), ("joined", .double(joined)), ("lastSeen", .double(lastSeen)),
        ]
        if let playground { fields.append(("playground", .string(playground))) }
        if let current { fields.append(("current", .string(current))) }
        fields.append(("progress", .object(progress.mapValues(\.json))))
        return "{" + fields.map { JSON.string($0.0).encoded + ":" + $0.1.encoded }.joined(separator: ",") + "}\n"
    }

    /// Counts a record may hold: a file that says more is repaired to this (the room adds to
    /// them, and `Int` arithmetic past its range would stop the server).
    static let maxCount = 1_000_000_000
    /// Times a record may hold, in seconds since 1970: none before 2000, none past 2200.
    static let times: ClosedRange<Double> = 946_684_800...7_258_118_400

    /// A record read back from its file's JSON (whole, or what could be read of a damaged one),
    /// every field checked: nil when there is no id and secret the room could have made; fields
    /// out of range are repaired, and `repairs` says which.
    /// - Parameters:
    ///   - json: the file's value; an object.
    ///   - now: what a missing or impossible time becomes.
    /// - Returns: the record and what was repaired (empty when nothing was), or nil.
    static func read(_ json: JSON, now: Double) -> (record: LearnerRecord, repairs: [String])? {
        guard let id = json["id"]?.string, Secret.isWellFormed(id), let secret = json["secret"]?.string, Secret.isWellFormed(secret) else {
            return nil
        }
        var repairs: [String] = []
        func time(_ value: JSON?, _ what: String) -> Double? {
            guard let value, value != .null else { return nil }
            if let n = value.number, times.contains(n) { return n }
            repairs.append(what)
            return nil
        }
        func count(_ value: JSON?, _ what: String) -> Int {
            guard let value else { return 0 }
            if let n = value.number, n >= 0, n <= Double(maxCount), n == n.rounded() { return Int(n) }
            repairs.append(what)
            return 0
        }
        func text(_ value: JSON?, _ what: String) -> String? {
            guard let value, value != .null else { return nil }
            if let s = value.string { return s }
            repairs.append(what)
            return nil
        }
        let name = json["name"]?.string.flatMap(Roster.cleanName)
        if name == nil || name != json["name"]?.string { repairs.append("name") }
        let joined = time(json["joined"], "joined") ?? now
        var record = LearnerRecord(
            id: id, secret: secret, name: name ?? "learner \(id.prefix(6))", joined: joined, lastSeen: time(json["lastSeen"], "lastSeen") ?? joined)
        record.playground = text(json["playground"], "playground")
        record.current = text(json["current"], "current")
        if let progress = json["progress"] {
            if case .object(let exercises) = progress {
                for (exercise, value) in exercises {
                    guard case .object = value else {
                        repairs.append("progress")
                        continue
                    }
                    var p = ExerciseProgress()
                    p.passed = value["passed"]?.bool ?? false
                    p.lastMessage = text(value["lastMessage"], "lastMessage")
                    p.hintsUsed = count(value["hintsUsed"], "hintsUsed")
                    p.checks = count(value["checks"], "checks")
                    p.opened = time(value["opened"], "opened")
                    p.passedAt = time(value["passedAt"], "passedAt")
                    p.text = text(value["text"], "text")
                    record.progress[exercise] = p
                }
            } else {
                repairs.append("progress")
            }
        }
        return (record, Array(Set(repairs)).sorted())
    }
}
