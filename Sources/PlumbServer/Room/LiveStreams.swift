import Foundation
import PlumbJSON

/// The room's live streams (`EventHub`) and when the teacher's table is sent on them: the table's
/// version (bumped at every change it shows) and what was last sent, and the keep-alive clock.
/// The room's ticker calls `tick` four times a second.
final class LiveStreams: Sendable {
    /// The streams to the pages.
    let events: EventHub
    private let tableVersion = LockedState(TableVersion())
    private let tableRefreshSeconds: Double
    private let keepAliveSeconds: Double

    init(configuration: RoomConfiguration) {
        events = EventHub(limits: configuration.streamLimits)
        tableRefreshSeconds = configuration.tableRefreshSeconds
        keepAliveSeconds = configuration.keepAliveSeconds
    }

    /// The teacher's table: the version of its last change and what was last sent.
    private struct TableVersion: Sendable {
        var changed = 0
        var sent = -1
        var sentAt: Double = 0
        var keptAliveAt: Double = 0
    }

    /// Something the teacher's table shows has changed.
    func tableChanged() {
        tableVersion.withLock { $0.changed &+= 1 }
    }

    /// Sends the table (made by `table`) to the teacher's streams when it changed (or is due),
    /// and keep-alive comments to every stream when due.
    func tick(now: Double, table: () -> JSON) {
        let teacherListens = events.hasSubscribers { $0 == .teacher }
        let (sendTable, keepAlive) = tableVersion.withLock { v -> (Bool, Bool) in
            let sendTable = teacherListens && (v.changed != v.sent || now - v.sentAt >= tableRefreshSeconds)
            if sendTable {
                v.sent = v.changed
                v.sentAt = now
            }
            let keepAlive = now - v.keptAliveAt >= keepAliveSeconds
            if keepAlive { v.keptAliveAt = now }
            return (sendTable, keepAlive)
        }
        if sendTable { events.send("room", table(), to: { $0 == .teacher }) }
        if keepAlive { events.keepAlive() }
    }

    /// `POST /api/stream` and `POST /api/teacher/stream`: a ticket for the caller's stream (the
    /// caller's header token was already checked).
    func ticket(for audience: EventHub.Audience) -> HTTPResponse {
        guard let ticket = events.ticket(for: audience, now: Room.now) else { return .error(503, "too many streams are being opened: try again") }
        let path = audience == .teacher ? "/api/teacher/events" : "/api/events"
        return .json(200, .object(["ticket": .string(ticket), "path": .string(path), "seconds": .int(Int(events.limits.ticketSeconds))]))
    }

    /// Tells every page (the learners', the teacher's and the present view) what the teacher
    /// presents now.
    func presentChanged(_ present: JSON) {
        events.send("present", present, to: { _ in true })
    }
}
