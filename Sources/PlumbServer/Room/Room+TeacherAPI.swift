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
        return runs.start(kind: .run, text: text, name: "present", learner: nil) { [self] outcome, events in
            let result = RoomRuns.runResult(outcome, limits: limits)
            presenter.show(text, events: events, result: result)
            presentChanged()
            return result
        }
    }

    /// A row per learner (by name), a cell per exercise.
    func roomTable() -> JSON {
        let now = Self.now
        let everyone = roster.everyone.sorted { ($0.name.lowercased(), $0.joined) < ($1.name.lowercased(), $1.joined) }
        let rows: [JSON] = everyone.map { learner in
            let cells: [JSON] = exercises.map { exercise in
                let p = learner.progress[exercise.name] ?? ExerciseProgress()
                let seconds = p.opened.map { (p.passedAt ?? now) - $0 } ?? 0
                return .object([
                    "passed": .bool(p.passed), "message": p.lastMessage.map(JSON.string) ?? .null, "hintsUsed": .int(p.hintsUsed),
                    "checks": .int(p.checks), "seconds": .int(Int(seconds)), "opened": .bool(p.opened != nil),
                ])
            }
            return .object([
                "name": .string(learner.name), "idleSeconds": .int(Int(now - learner.lastSeen)),
                "passed": .int(learner.progress.values.filter(\.passed).count), "cells": .array(cells),
            ])
        }
        let counts = runs.queue.counts
        let presenting = presenter.text
        return .object([
            "exercises": .array(exercises.map { .string($0.name) }), "learners": .array(rows),
            "running": .int(counts.running), "waiting": .int(counts.waiting), "present": presenting.map(JSON.string) ?? .null,
        ])
    }
}
