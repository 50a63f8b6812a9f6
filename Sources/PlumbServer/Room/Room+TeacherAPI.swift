import Foundation
import PlumbJSON

/// The teacher's endpoints, under `/api/teacher/`: each needs the teacher's key in `X-Plumb-Key`
/// (the room's token opens none of them).
extension Room {
    /// `POST /api/teacher/present {"text": PIPELINE}`: runs the pipeline and shows it, with its
    /// run, on every learner's page; empty text ends present mode.
    func present(_ request: HTTPRequest) -> HTTPResponse {
        guard case .success(let body) = Self.object(request.body), let text = body["text"]?.string else {
            return .error(400, "present needs {\"text\": PIPELINE} (empty text ends present mode)")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            presenter.clear()
            presentChanged()
            return .json(200, .object(["active": .bool(false)]))
        }
        if let refused = Self.refusedCommands(text) { return Self.immediate(refused) }
        let limits = runs.limits
        return runs.start(kind: .run, text: text, name: "present", learner: nil, diagramWidth: RoomRuns.presentDiagramWidth) { [self] outcome, events, all in
            let result = RoomRuns.runResult(outcome, limits: limits, events: events, all: all)
            presenter.show(text, events: events, result: result)
            presentChanged()
            return result
        }
    }

    /// `POST /api/teacher/present/step {"pause": N}`: stands the presented pipeline at its
    /// pause N (0 is time 0; a number past the last is the last), and every learner's present
    /// view follows; `{"pause": null}` shows the whole run again. The first step runs the
    /// pipeline in a step-through child (`StepReply`) and answers with its stream; later ones
    /// answer at once with `{"pause": N, "count": C}`.
    func presentStep(_ request: HTTPRequest) -> HTTPResponse {
        guard case .success(let body) = Self.object(request.body), let field = body["pause"] else {
            return .error(400, "present/step needs {\"pause\": N} (null shows the whole run)")
        }
        let wanted: Int?
        switch field {
        case .null: wanted = nil
        case .int(let n): wanted = n
        default: return .error(400, "\"pause\" is a whole number, or null")
        }
        let (presentation, text, stepped) = presenter.current
        guard let text else {
            // Showing the whole run of nothing is nothing to do.
            return wanted == nil ? .json(200, .object(["pause": .null])) : .error(409, "nothing is presented: present a pipeline first")
        }
        if stepped || wanted == nil {
            let pause = presenter.move(to: wanted)
            presentChanged()
            return .json(200, .object(["pause": pause.map(JSON.int) ?? .null]))
        }
        let limits = runs.limits
        return runs.start(kind: .step, text: text, name: "present", learner: nil, diagramWidth: RoomRuns.presentDiagramWidth) { [self] outcome, _, _ in
            let result = RoomRuns.runResult(outcome, limits: limits)
            if let steps = result["steps"]?.array,
                presenter.attach(steps: steps, ending: result["ending"]?.string ?? "", to: presentation, pause: wanted ?? 0)
            {
                presentChanged()
            }
            return result
        }
    }

    /// `POST /api/teacher/test/clock {"advance": SECONDS}`: moves the teacher's table's clock
    /// later (at most a day a call), for a browser test of the stuck marker by time; 404, as an
    /// unknown endpoint, unless the room was started for tests (`RoomClock`).
    func moveTestClock(_ request: HTTPRequest) -> HTTPResponse {
        guard clock.isMovable else { return .error(404, "no such teacher endpoint") }
        guard case .success(let body) = Self.object(request.body), case .int(let seconds)? = body["advance"], (0...86_400).contains(seconds) else {
            return .error(400, "test/clock needs {\"advance\": SECONDS} (0 to 86400)")
        }
        _ = clock.advance(seconds: Double(seconds))
        live.tableChanged()
        return .json(200, .object(["advanced": .int(seconds)]))
    }

    /// The teacher's table at `now`: a row per learner (by name), a cell per exercise, the
    /// learner's current exercise and whether they are stuck on it (`StuckRule`); per exercise,
    /// how many passed it, are trying it (opened, not passed) and have not started it; the room's
    /// common mistakes (`MistakeGroups`: the largest, and how many groups are left out).
    func roomTable(now given: Double? = nil) -> JSON {
        let now = given ?? clock.now
        let everyone = roster.everyone.sorted { ($0.name.lowercased(), $0.joined) < ($1.name.lowercased(), $1.joined) }
        let rule = configuration.stuckRule
        let rows: [JSON] = everyone.map { learner in
            let cells: [JSON] = exercises.map { exercise in
                let p = learner.progress[exercise.name] ?? ExerciseProgress()
                let seconds = p.opened.map { (p.passedAt ?? now) - $0 } ?? 0
                return .object([
                    // The last failure, shown on hover: none once passed, cut to its first 300
                    // characters (a marble diff can be long, and the table goes out at every change).
                    "passed": .bool(p.passed), "message": p.passed ? .null : p.lastMessage.map { JSON.string(String($0.prefix(300))) } ?? .null,
                    "hintsUsed": .int(p.hintsUsed),
                    "checks": .int(p.checks), "seconds": .int(Int(seconds)), "opened": .bool(p.opened != nil),
                ])
            }
            var fields: [String: JSON] = [
                "name": .string(learner.name), "idleSeconds": .int(Int(now - learner.lastSeen)),
                "passed": .int(exercises.count { learner.progress[$0.name]?.passed == true }), "cells": .array(cells),
                "current": .null, "stuck": .null,
            ]
            if let current = learner.current, let index = exercises.firstIndex(where: { $0.name == current }),
                let progress = learner.progress[current], !progress.passed
            {
                fields["current"] = .int(index)
                fields["stuck"] = rule.reason(progress, now: now).map(JSON.string) ?? .null
            }
            return .object(fields)
        }
        let totals: [JSON] = exercises.map { exercise in
            let progress = everyone.map { $0.progress[exercise.name] ?? ExerciseProgress() }
            let passed = progress.count(where: \.passed)
            let trying = progress.count { !$0.passed && ($0.opened != nil || $0.checks > 0) }
            return .object(["passed": .int(passed), "trying": .int(trying), "notStarted": .int(everyone.count - passed - trying)])
        }
        let mistakes = MistakeGroups.shown(MistakeGroups.groups(everyone, exercises: exercises.map(\.name)))
        let counts = runs.queue.counts
        let presenting = presenter.text
        return .object([
            "exercises": .array(exercises.map { .string($0.name) }), "learners": .array(rows), "totals": .array(totals),
            "stuckRule": .string(rule.words), "mistakes": .array(mistakes.groups.map(\.json)), "mistakesLeftOut": .int(mistakes.leftOut),
            "running": .int(counts.running), "waiting": .int(counts.waiting), "present": presenting.map(JSON.string) ?? .null,
        ])
    }
}
