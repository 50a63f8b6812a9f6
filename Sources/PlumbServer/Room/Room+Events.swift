import Foundation
import PlumbJSON

/// The room's live streams (`EventHub`): tickets, opening a stream, and what is sent on them.
///
///     POST /api/stream          (X-Plumb-Room, X-Plumb-Learner)  → {"ticket": T, "path": "/api/events"}
///     GET  /api/events?ticket=T                                 → event: present, event: run …
///     POST /api/teacher/stream  (X-Plumb-Key)                    → {"ticket": T, "path": "/api/teacher/events"}
///     GET  /api/teacher/events?ticket=T                         → event: room, event: present …
///
/// Learners' streams get `present` (the teacher's pipeline, at once and at every change) and
/// `run` (their own runs and checks started with `"via": "events"`: `{"run": ID, "queued"|"event"|
/// "result": …}`). The teacher's gets `room` (the table) at once, within a quarter of a second of
/// any change, and every `tableRefreshSeconds`, and `present` too (the present view, `/present`,
/// is a teacher's page). One ticker thread per room does the coalescing
/// and the keep-alive comments; no thread waits on any stream.
extension Room {
    /// `GET /api/events?ticket=T` and `GET /api/teacher/events?ticket=T`: the ticket is the
    /// caller's only credential, redeemed here.
    func openEvents(_ request: HTTPRequest, forTeacher: Bool) -> HTTPResponse {
        let audience = live.events.redeem(request.query["ticket"], now: Self.now) { ($0 == .teacher) == forTeacher }
        guard let audience else {
            if let refusal = access.failed(request.client) { return refusal }
            return .error(403, "this stream needs a fresh ticket (POST \(forTeacher ? "/api/teacher/stream" : "/api/stream") with your token)")
        }
        var greeting = EventHub.retry
        switch audience {
        case .teacher: greeting += EventHub.event("room", roomTable()) + EventHub.event("present", presenter.json)
        case .learner: greeting += EventHub.event("present", presenter.json)
        }
        switch live.events.open(audience, client: request.client, greeting: greeting) {
        case .failure(let refusal): return .error(refusal.status, refusal.message)
        case .success(let stream):
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no")], body: .stream(stream))
        }
    }

    /// Tells every learner's page and the teacher's (and the present view) what the teacher
    /// presents now, and the teacher's table.
    func presentChanged() {
        live.presentChanged(presenter.json)
        live.tableChanged()
    }

    /// A run id a page chose for a run whose events go to its stream: letters, digits, `-` and
    /// `_`, at most 40.
    static func isRunID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 40
            && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" }
    }
}
