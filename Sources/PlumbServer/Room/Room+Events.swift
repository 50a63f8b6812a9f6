import Foundation

/// The room's live streams (`EventHub`): tickets, opening a stream, and what is sent on them.
///
///     POST /api/stream          (X-Plumb-Room, X-Plumb-Learner)  → {"ticket": T, "path": "/api/events"}
///     GET  /api/events?ticket=T                                 → event: present, event: run …
///     POST /api/teacher/stream  (X-Plumb-Key)                    → {"ticket": T, "path": "/api/teacher/events"}
///     GET  /api/teacher/events?ticket=T                         → event: room …
///
/// Learners' streams get `present` (the teacher's pipeline, at once and at every change) and
/// `run` (their own runs and checks started with `"via": "events"`: `{"run": ID, "queued"|"event"|
/// "result": …}`). The teacher's gets `room` (the table) at once, within a quarter of a second of
/// any change, and every `tableRefreshSeconds`. One ticker thread per room does the coalescing
/// and the keep-alive comments; no thread waits on any stream.
extension Room {
    /// The teacher's table: the version of its last change and what was last sent.
    struct TableVersion: Sendable {
        var changed = 0
        var sent = -1
        var sentAt: Double = 0
        var keptAliveAt: Double = 0
    }

    /// Something the teacher's table shows has changed.
    func tableChanged() {
        tableVersion.withLock { $0.changed &+= 1 }
    }

    /// Starts the room's ticker: a thread that holds the room weakly and ends with it.
    static func startTicker(_ room: Room) {
        let thread = Thread { [weak room] in
            while true {
                guard let current = room else { return }
                current.tick(now: Self.now)
                usleep(250_000)
            }
        }
        thread.name = "plumb-serve-ticker"
        thread.start()
    }

    /// Sends the table to the teacher's streams when it changed (or is due), and keep-alive
    /// comments to every stream when due.
    func tick(now: Double) {
        let teacherListens = events.hasSubscribers { $0 == .teacher }
        let (table, keepAlive) = tableVersion.withLock { v -> (Bool, Bool) in
            let table = teacherListens && (v.changed != v.sent || now - v.sentAt >= configuration.tableRefreshSeconds)
            if table {
                v.sent = v.changed
                v.sentAt = now
            }
            let keepAlive = now - v.keptAliveAt >= configuration.keepAliveSeconds
            if keepAlive { v.keptAliveAt = now }
            return (table, keepAlive)
        }
        if table { events.send("room", roomTable(), to: { $0 == .teacher }) }
        if keepAlive { events.keepAlive() }
    }

    /// `POST /api/stream` and `POST /api/teacher/stream`: a ticket for the caller's stream (the
    /// caller's header token was already checked).
    func streamTicket(for audience: EventHub.Audience) -> HTTPResponse {
        guard let ticket = events.ticket(for: audience, now: Self.now) else { return .error(503, "too many streams are being opened: try again") }
        let path = audience == .teacher ? "/api/teacher/events" : "/api/events"
        return .json(200, .object(["ticket": .string(ticket), "path": .string(path), "seconds": .int(Int(events.limits.ticketSeconds))]))
    }

    /// `GET /api/events?ticket=T` and `GET /api/teacher/events?ticket=T`.
    func openEvents(_ request: HTTPRequest) -> HTTPResponse {
        let forTeacher = request.path == "/api/teacher/events"
        let audience = events.redeem(request.query["ticket"], now: Self.now) { ($0 == .teacher) == forTeacher }
        guard let audience else {
            guard authFailures.allow(request.client) else { return .error(429, "too many wrong tokens: wait a minute") }
            return .error(403, "this stream needs a fresh ticket (POST \(forTeacher ? "/api/teacher/stream" : "/api/stream") with your token)")
        }
        var greeting = EventHub.retry
        switch audience {
        case .teacher: greeting += EventHub.event("room", roomTable())
        case .learner: greeting += EventHub.event("present", presentJSON())
        }
        switch events.open(audience, client: request.client, greeting: greeting) {
        case .failure(let refusal): return .error(refusal.status, refusal.message)
        case .success(let stream):
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no")], body: .stream(stream))
        }
    }

    /// Tells every learner's page what the teacher presents now.
    func presentChanged() {
        events.send("present", presentJSON(), to: { if case .learner = $0 { true } else { false } })
    }

    /// What the teacher presents, as `GET /api/present` and the `present` event give it.
    func presentJSON() -> JSON {
        let state = present.withLock { $0 }
        guard let text = state.text else { return .object(["version": .int(state.version), "active": .bool(false)]) }
        return .object([
            "version": .int(state.version), "active": .bool(true), "text": .string(text), "events": .array(state.events),
            "result": state.result ?? .null,
        ])
    }

    /// A run id a page chose for a run whose events go to its stream: letters, digits, `-` and
    /// `_`, at most 40.
    static func isRunID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 40
            && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" }
    }
}
