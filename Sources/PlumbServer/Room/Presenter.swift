import Foundation
import PlumbJSON

/// What the teacher presents: their pipeline and its run, shown on every learner's page
/// (`GET /api/present` and the learners' `present` event).
final class Presenter: Sendable {
    private let state = LockedState(PresentState())

    /// Ends present mode.
    func clear() {
        state.withLock { $0 = PresentState(version: $0.version + 1) }
    }

    /// Presents `text` with its run's events and result.
    func show(_ text: String, events: [JSON], result: JSON) {
        state.withLock { $0 = PresentState(version: $0.version + 1, text: text, events: events, result: result) }
    }

    /// The pipeline presented now, if any (the teacher's table shows it).
    var text: String? { state.withLock { $0.text } }

    /// What the teacher presents, as `GET /api/present` and the `present` event give it.
    var json: JSON {
        let state = state.withLock { $0 }
        guard let text = state.text else { return .object(["version": .int(state.version), "active": .bool(false)]) }
        return .object([
            "version": .int(state.version), "active": .bool(true), "text": .string(text), "events": .array(state.events),
            "result": state.result ?? .null,
        ])
    }
}

/// The presented pipeline and its run; every change has a new version.
struct PresentState: Sendable {
    var version = 0
    var text: String?
    var events: [JSON] = []
    var result: JSON?
}
