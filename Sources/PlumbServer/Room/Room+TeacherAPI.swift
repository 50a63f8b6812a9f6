import Foundation

/// The teacher's endpoints, under `/api/teacher/`: each needs the teacher's key in `X-Plumb-Key`
/// (the room's token opens none of them).
extension Room {
    func teacherAPI(_ request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/api/teacher/room"):
            return .json(200, roomTable())
        case ("POST", "/api/teacher/stream"):
            return streamTicket(for: .teacher)
        case ("POST", "/api/teacher/present"):
            guard case .success(let body) = Self.object(request.body), let text = body["text"]?.string else {
                return .error(400, "present needs {\"text\": PIPELINE} (empty text ends present mode)")
            }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                present.withLock { $0 = PresentState(version: $0.version + 1) }
                presentChanged()
                tableChanged()
                return .json(200, .object(["active": .bool(false)]))
            }
            if let refused = Self.refusedCommands(text) { return Self.immediate(refused) }
            let limits = configuration.runLimits
            return startRun(kind: .run, text: text, name: "present", learner: nil) { [self] outcome, events in
                let result = Self.runResult(outcome, limits: limits)
                present.withLock { $0 = PresentState(version: $0.version + 1, text: text, events: events, result: result) }
                presentChanged()
                tableChanged()
                return result
            }
        default:
            return .error(404, "no such teacher endpoint")
        }
    }

    /// A row per learner (by name), a cell per exercise.
    func roomTable() -> JSON {
        let now = Self.now
        let everyone = learners.withLock { Array($0.values) }.sorted { ($0.name.lowercased(), $0.joined) < ($1.name.lowercased(), $1.joined) }
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
        let counts = queue.counts
        let presenting = present.withLock { $0.text }
        return .object([
            "exercises": .array(exercises.map { .string($0.name) }), "learners": .array(rows),
            "running": .int(counts.running), "waiting": .int(counts.waiting), "present": presenting.map(JSON.string) ?? .null,
        ])
    }
}
