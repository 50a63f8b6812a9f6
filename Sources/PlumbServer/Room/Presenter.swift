import Foundation
import PlumbJSON

/// What the teacher presents: their pipeline and its run, shown on every learner's page
/// (`GET /api/present` and the learners' `present` event), and, once the teacher steps through
/// it, the pause it stands at (every learner's present view follows).
final class Presenter: Sendable {
    private let state = LockedState(PresentState())

    /// Ends present mode.
    func clear() {
        state.withLock { $0 = PresentState(version: $0.version + 1, presentation: $0.presentation + 1) }
    }

    /// Presents `text` with its run's events and result.
    func show(_ text: String, events: [JSON], result: JSON) {
        state.withLock {
            $0 = PresentState(version: $0.version + 1, presentation: $0.presentation + 1, text: text, events: events, result: result)
        }
    }

    /// The pipeline presented now, if any (the teacher's table shows it).
    var text: String? { state.withLock { $0.text } }

    /// The presentation showing now (it changes with each `show` and `clear`), its text, and
    /// whether its pauses are known yet.
    var current: (presentation: Int, text: String?, stepped: Bool) {
        state.withLock { ($0.presentation, $0.text, $0.steps != nil) }
    }

    /// Keeps the pauses of presentation `presentation` (a step run's `"steps"`) and stands at
    /// `pause`; false when another presentation has begun since.
    func attach(steps: [JSON], ending: String, to presentation: Int, pause: Int) -> Bool {
        state.withLock { state in
            guard state.presentation == presentation, state.text != nil, !steps.isEmpty else { return false }
            state.steps = steps
            state.ending = ending
            state.pause = Self.clamp(pause, count: steps.count)
            state.version += 1
            return true
        }
    }

    /// Stands at `pause` (clamped to the pauses there are), or with nil shows the whole run again.
    /// - Returns: the pause it stands at, nil when none (not stepping, or no pauses known).
    func move(to pause: Int?) -> Int? {
        state.withLock { state in
            guard let steps = state.steps else { return nil }
            state.pause = pause.map { Self.clamp($0, count: steps.count) }
            state.version += 1
            return state.pause
        }
    }

    private static func clamp(_ pause: Int, count: Int) -> Int { Swift.min(Swift.max(0, pause), count - 1) }

    /// What the teacher presents, as `GET /api/present` and the `present` event give it; while
    /// stepping, `"step"` holds the pause it stands at, how many there are and their times.
    var json: JSON {
        let state = state.withLock { $0 }
        guard let text = state.text else { return .object(["version": .int(state.version), "active": .bool(false)]) }
        var fields: [String: JSON] = [
            "version": .int(state.version), "active": .bool(true), "text": .string(text), "events": .array(state.events),
            "result": state.result ?? .null,
        ]
        if let steps = state.steps, let pause = state.pause, steps.indices.contains(pause) {
            fields["step"] = .object([
                "index": .int(pause), "count": .int(steps.count), "ending": .string(state.ending), "pause": steps[pause],
                "times": .array(steps.map { $0["ns"] ?? .int(0) }),
            ])
        }
        return .object(fields)
    }
}

/// The presented pipeline and its run; every change has a new version.
struct PresentState: Sendable {
    var version = 0
    /// Which presentation this is: a step run started for an older one is not attached.
    var presentation = 0
    var text: String?
    var events: [JSON] = []
    var result: JSON?
    /// The pauses of a step-through (`StepReply`), once the teacher has stepped.
    var steps: [JSON]?
    var ending = ""
    /// The pause the presentation stands at; nil shows the whole run.
    var pause: Int?
}
