import Foundation
import PipeLanguage

/// A workshop room: the learners, their progress, the teacher's presented pipeline, and the
/// requests that read and change them. `handle` is called on libmicrohttpd's polling threads;
/// every piece of state is behind its own lock, held only to read or change it.
public final class Room: Sendable {
    let configuration: RoomConfiguration
    let store: RoomStore
    /// The learners' URL carries it (`/?room=TOKEN`), and every learner request its header.
    public let roomToken: String
    /// The teacher's URL carries it (`/teacher?key=KEY`), and every teacher request its header.
    public let teacherKey: String
    let learners: LockedState<[String: LearnerRecord]>
    /// Learners with a run going: one at a time each.
    let busy = LockedState<Set<String>>([])
    let present = LockedState(PresentState())
    let queue: RunQueue
    let clientLimit: RateLimiter
    let learnerLimit: RateLimiter
    let authFailures: RateLimiter
    let joinLimit: RateLimiter
    /// The live streams (server-sent events) to the pages.
    let events: EventHub
    /// Bumped at every change the teacher's table shows; the ticker sends the table when it moved.
    let tableVersion = LockedState(TableVersion())
    /// Run ids for runs whose events go to a learner's stream.
    let runIDs = LockedState<UInt64>(0)

    public init(_ configuration: RoomConfiguration) throws {
        self.configuration = configuration
        store = RoomStore(directory: configuration.stateDirectory, report: configuration.report)
        try store.prepare()
        let secrets = try store.secrets()
        roomToken = secrets.room
        teacherKey = secrets.teacher
        learners = LockedState(Dictionary(store.loadLearners(now: Self.now).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
        queue = RunQueue(slots: configuration.slots, maxWaiting: configuration.maxWaiting)
        clientLimit = RateLimiter(capacity: configuration.clientBurst, perSecond: configuration.clientPerSecond)
        learnerLimit = RateLimiter(capacity: configuration.learnerBurst, perSecond: configuration.learnerPerSecond)
        authFailures = RateLimiter(capacity: configuration.authFailureBurst, perSecond: configuration.authFailurePerSecond)
        joinLimit = RateLimiter(capacity: configuration.joinBurst, perSecond: configuration.joinPerSecond)
        events = EventHub(limits: configuration.streamLimits)
        Self.startTicker(self)
    }

    var exercises: [RoomExercise] { configuration.exercises }

    static var now: Double { Date().timeIntervalSince1970 }

    // MARK: Routing

    /// Answers one request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard clientLimit.allow(request.client) else { return .error(429, "too many requests: slow down") }
        guard Self.isSafe(request.path) else { return .error(400, "bad path") }
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"):
            if let refusal = refusal(request.query["room"], roomToken, client: request.client, page: true) { return refusal }
            return .text(200, Assets.learnerPage, type: "text/html; charset=utf-8")
        case ("GET", "/teacher"):
            if let refusal = refusal(request.query["key"], teacherKey, client: request.client, page: true) { return refusal }
            return .text(200, Assets.teacherPage, type: "text/html; charset=utf-8")
        case ("GET", "/api/events"), ("GET", "/api/teacher/events"):
            return openEvents(request)
        case ("GET", let path) where Assets.files[path] != nil:
            let (type, text) = Assets.files[path]!
            return .text(200, text, type: type)
        case (_, let path) where path.hasPrefix("/api/teacher/"):
            if let refusal = refusal(request.headers["x-plumb-key"], teacherKey, client: request.client, page: false) { return refusal }
            return teacherAPI(request)
        case (_, let path) where path.hasPrefix("/api/"):
            if let refusal = refusal(request.headers["x-plumb-room"], roomToken, client: request.client, page: false) { return refusal }
            return learnerAPI(request)
        default:
            return .error(404, "no such page")
        }
    }

    /// Paths that could reach outside what the server serves are refused outright, though no
    /// route reads a file: `..` segments (also as `%2e%2e`, which libmicrohttpd has decoded),
    /// backslashes, NUL and other control characters.
    static func isSafe(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.utf8.count <= 1024 else { return false }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f || $0 == "\\" }) { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." }
    }

    /// Compares a token in constant time: nil when it matches; otherwise 403, or 429 once the
    /// client has given too many wrong or missing tokens (a learner's room token is never the
    /// teacher's key: they are separate random values).
    func refusal(_ given: String?, _ expected: String, client: String, page: Bool) -> HTTPResponse? {
        if Secret.matches(given, expected) { return nil }
        guard authFailures.allow(client) else { return .error(429, "too many wrong tokens: wait a minute") }
        if page { return .text(403, Assets.forbiddenPage, type: "text/html; charset=utf-8") }
        return .error(403, expected == teacherKey ? "this needs the teacher's key" : "this needs the room's token (open the URL the teacher gave)")
    }

    // MARK: Learners

    /// The learner a request's `X-Plumb-Learner: ID:SECRET` names, or the response refusing it.
    func learner(of request: HTTPRequest) -> Result<LearnerRecord, HTTPResponseError> {
        let parts = (request.headers["x-plumb-learner"] ?? "").split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let record = learners.withLock({ $0[parts[0]] }), Secret.matches(parts[1], record.secret) else {
            _ = authFailures.allow(request.client)
            return .failure(HTTPResponseError(.json(401, .object(["error": .string("join the room first"), "join": .bool(true)]))))
        }
        let now = Self.now
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
            tableChanged()
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

    /// A new learner, kept and saved; nil when the room already has `maxLearners`.
    func join(_ name: String) -> LearnerRecord? {
        let now = Self.now
        let record = LearnerRecord(id: Secret.make(), secret: Secret.make(), name: name, joined: now, lastSeen: now)
        let kept = learners.withLock { table -> Bool in
            guard table.count < configuration.maxLearners else { return false }
            table[record.id] = record
            return true
        }
        guard kept else { return nil }
        save(record)
        tableChanged()
        return record
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

/// A response that ends a request early.
struct HTTPResponseError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}

/// What the teacher presents: their pipeline and its run, shown on every learner's page.
struct PresentState: Sendable {
    var version = 0
    var text: String?
    var events: [JSON] = []
    var result: JSON?
}
