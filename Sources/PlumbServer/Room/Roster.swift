import Foundation
import PlumbJSON

/// The room's learners: who joined, their progress, and the files that keep them
/// (`RoomStore`); who a request's `X-Plumb-Learner: ID:SECRET` names; joins and requests per
/// learner, limited. Every change is saved and told to `changed` (the teacher's table).
final class Roster: Sendable {
    private let store: RoomStore
    private let learners: LockedState<[String: LearnerRecord]>
    private let learnerLimit: RateLimiter
    private let joinLimit: RateLimiter
    private let configuration: RoomConfiguration
    private let changed: @Sendable () -> Void

    /// Reads the learners kept in `store`.
    init(store: RoomStore, configuration: RoomConfiguration, changed: @escaping @Sendable () -> Void) {
        self.store = store
        self.configuration = configuration
        self.changed = changed
        learners = LockedState(Dictionary(store.loadLearners(now: Room.now).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
        learnerLimit = RateLimiter(configuration.rates.learner)
        joinLimit = RateLimiter(configuration.rates.join)
    }

    /// Every learner's record, as it is now.
    var everyone: [LearnerRecord] { learners.withLock { Array($0.values) } }

    /// A learner's record, as it is now.
    func record(_ id: String) -> LearnerRecord? { learners.withLock { $0[id] } }

    /// The learner a request's `X-Plumb-Learner: ID:SECRET` names, or the response refusing it.
    /// - Parameters:
    ///   - failed: counts a wrong learner against the client.
    func learner(of request: HTTPRequest, failed: (String) -> Void) -> Result<LearnerRecord, HTTPResponseError> {
        let parts = (request.headers["x-plumb-learner"] ?? "").split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let record = learners.withLock({ $0[parts[0]] }), Secret.matches(parts[1], record.secret) else {
            failed(request.client)
            return .failure(HTTPResponseError(.json(401, .object(["error": .string("join the room first"), "join": .bool(true)]))))
        }
        let now = Room.now
        if now - record.lastSeen > configuration.idleSeconds {
            return .failure(
                HTTPResponseError(
                    .json(401, .object(["error": .string("your session expired after a long idle time: join again"), "join": .bool(true)]))))
        }
        guard learnerLimit.allow(record.id) else {
            return .failure(HTTPResponseError(.error(429, "too many requests: slow down")))
        }
        learners.withLock { $0[record.id]?.lastSeen = now }
        return .success(record)
    }

    /// Changes a learner's record and saves it.
    func update(_ id: String, _ change: (inout LearnerRecord) -> Void) {
        let saved: LearnerRecord? = learners.withLock { table in
            guard var record = table[id] else { return nil }
            change(&record)
            table[id] = record
            return record
        }
        if let saved {
            save(saved)
            changed()
        }
    }

    /// A learner's name as kept: blanks trimmed, control characters dropped, at most 40 characters.
    static func cleanName(_ name: String) -> String? {
        let kept = String(
            String.UnicodeScalarView(name.unicodeScalars.filter { !($0.properties.generalCategory == .control || $0.properties.generalCategory == .format) }))
        let trimmed = kept.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        return String(trimmed.prefix(40))
    }

    /// A new learner from `client`, kept and saved; or the response refusing it (too many joins
    /// from the address, or the room already has `maxLearners`).
    func join(_ name: String, client: String) -> Result<LearnerRecord, HTTPResponseError> {
        guard joinLimit.allow(client) else {
            let burst = Int(configuration.rates.join.burst)
            let every = configuration.rates.join.perSecond > 0 ? String(format: "%g", 1 / configuration.rates.join.perSecond) : "∞"
            return .failure(
                HTTPResponseError(
                    .error(
                        429,
                        "too many learners joined from your address (\(burst) at once, then one every \(every) s): wait a moment and join again, or ask the teacher"
                    )))
        }
        let now = Room.now
        let record = LearnerRecord(id: Secret.make(), secret: Secret.make(), name: name, joined: now, lastSeen: now)
        let kept = learners.withLock { table -> Bool in
            guard table.count < configuration.capacity.maxLearners else { return false }
            table[record.id] = record
            return true
        }
        guard kept else {
            return .failure(HTTPResponseError(.error(503, "the room is full (\(configuration.capacity.maxLearners) learners): ask the teacher")))
        }
        save(record)
        changed()
        return .success(record)
    }

    /// Saves a learner's file; a failure is reported (the learner stays in the room, and the
    /// next change tries again).
    private func save(_ record: LearnerRecord) {
        do {
            try store.save(record)
        } catch let error as ServerError {
            configuration.report(error.message)
        } catch {
            configuration.report("cannot save learner \(record.id): \(error)")
        }
    }
}
