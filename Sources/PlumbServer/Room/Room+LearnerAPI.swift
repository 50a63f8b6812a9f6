import Foundation

/// The learner's endpoints, under `/api/`: each needs the room's token in `X-Plumb-Room`, and
/// (but `join`) the learner's `X-Plumb-Learner: ID:SECRET`; state changes are POSTs.
extension Room {
    func learnerAPI(_ request: HTTPRequest) -> HTTPResponse {
        if request.path == "/api/join" {
            guard request.method == "POST" else { return .error(405, "join is a POST") }
            guard case .success(let body) = Self.object(request.body), let name = body["name"]?.string.flatMap(Self.cleanName) else {
                return .error(400, "give your name: {\"name\": \"Ada\"}")
            }
            guard joinLimit.allow(request.client) else {
                let burst = Int(configuration.joinBurst)
                let every = configuration.joinPerSecond > 0 ? String(format: "%g", 1 / configuration.joinPerSecond) : "∞"
                return .error(
                    429,
                    "too many learners joined from your address (\(burst) at once, then one every \(every) s): wait a moment and join again, or ask the teacher"
                )
            }
            guard let record = join(name) else {
                return .error(503, "the room is full (\(configuration.maxLearners) learners): ask the teacher")
            }
            return .json(200, .object(["learner": .string(record.id + ":" + record.secret), "name": .string(record.name)]))
        }
        if request.method == "GET", request.path == "/api/present" { return presentAPI(request) }
        let learner: LearnerRecord
        switch self.learner(of: request) {
        case .success(let record): learner = record
        case .failure(let refusal): return refusal.response
        }
        switch (request.method, request.path) {
        case ("POST", "/api/stream"):
            return streamTicket(for: .learner(learner.id))
        case ("GET", "/api/exercises"):
            return .json(200, exerciseList(learner))
        case ("GET", "/api/exercise"):
            guard let exercise = exercises.first(where: { $0.name == request.query["name"] }) else { return .error(404, "no such exercise") }
            return .json(200, exerciseDetail(exercise, learner: learner.id))
        case ("POST", "/api/hint"), ("POST", "/api/check"), ("POST", "/api/reset"), ("POST", "/api/run"):
            let body: [String: JSON]
            switch Self.object(request.body) {
            case .success(let b): body = b
            case .failure(let refusal): return refusal.response
            }
            // `"via": "events", "run": ID`: the run's lines go to the learner's event stream.
            var delivery = RunDelivery.response
            if body["via"]?.string == "events" {
                guard let id = body["run"]?.string, Self.isRunID(id) else {
                    return .error(400, "a run sent to the event stream needs \"run\": an id of letters, digits, - and _")
                }
                delivery = .events(learner: learner.id, run: id)
            }
            if request.path == "/api/run" {
                guard let text = body["text"]?.string else { return .error(400, "run needs {\"text\": PIPELINE}") }
                return run(text, learner: learner, delivery: delivery)
            }
            guard let exercise = exercises.first(where: { $0.name == body["exercise"]?.string }) else { return .error(404, "no such exercise") }
            switch request.path {
            case "/api/hint": return hint(exercise, learner: learner.id)
            case "/api/reset":
                update(learner.id) { $0.progress[exercise.name, default: ExerciseProgress()].text = nil }
                return .json(200, exerciseDetail(exercise, learner: learner.id))
            default:
                guard let text = body["text"]?.string else { return .error(400, "check needs {\"exercise\": NAME, \"text\": TEXT}") }
                return check(exercise, text: text, learner: learner, delivery: delivery)
            }
        case (_, "/api/exercises"), (_, "/api/exercise"), (_, "/api/hint"), (_, "/api/check"), (_, "/api/reset"), (_, "/api/run"), (_, "/api/stream"):
            return .error(405, "wrong method for \(request.path)")
        default:
            return .error(404, "no such endpoint")
        }
    }

    /// A request body that must be a JSON object.
    static func object(_ body: [UInt8]) -> Result<[String: JSON], HTTPResponseError> {
        guard case .object(let fields)? = JSON.decode(body) else {
            return .failure(HTTPResponseError(.error(400, "the body must be a JSON object in UTF-8")))
        }
        return .success(fields)
    }

    private func exerciseList(_ learner: LearnerRecord) -> JSON {
        let items: [JSON] = exercises.map { exercise in
            let progress = learner.progress[exercise.name] ?? ExerciseProgress()
            return .object([
                "name": .string(exercise.name), "title": .string(exercise.lesson.first ?? exercise.name),
                "passed": .bool(progress.passed), "checks": .int(progress.checks), "hintsUsed": .int(progress.hintsUsed),
            ])
        }
        return .object(["name": .string(learner.name), "exercises": .array(items), "playground": .string(learner.playground ?? "")])
    }

    func exerciseDetail(_ exercise: RoomExercise, learner id: String) -> JSON {
        update(id) { record in
            if record.progress[exercise.name]?.opened == nil { record.progress[exercise.name, default: ExerciseProgress()].opened = Self.now }
        }
        let progress = learners.withLock { $0[id]?.progress[exercise.name] } ?? ExerciseProgress()
        return .object([
            "name": .string(exercise.name), "lesson": .array(exercise.lesson.map(JSON.string)),
            "hints": .array(exercise.hints.prefix(progress.hintsUsed).map(JSON.string)), "hintsTotal": .int(exercise.hints.count),
            "text": .string(progress.text ?? exercise.code), "passed": .bool(progress.passed),
            "message": progress.lastMessage.map(JSON.string) ?? .null,
        ])
    }

    private func hint(_ exercise: RoomExercise, learner id: String) -> HTTPResponse {
        var shown = 0
        update(id) { record in
            var progress = record.progress[exercise.name] ?? ExerciseProgress()
            progress.hintsUsed = min(exercise.hints.count, progress.hintsUsed + 1)
            shown = progress.hintsUsed
            record.progress[exercise.name] = progress
        }
        return .json(
            200,
            .object([
                "hints": .array(exercise.hints.prefix(shown).map(JSON.string)), "hintsTotal": .int(exercise.hints.count),
            ]))
    }

    private func check(_ exercise: RoomExercise, text: String, learner: LearnerRecord, delivery: RunDelivery) -> HTTPResponse {
        let id = learner.id
        let name = exercise.name
        update(id) { $0.progress[name, default: ExerciseProgress()].text = text }
        if let refused = Self.refusedCommands(text) { return Self.immediate(.object(["passed": .bool(false)]).merging(refused)) }
        if RoomExercise.expectLines(of: text) != exercise.expectLines {
            let message =
                "keep the exercise's expect lines as they are (\(RoomDiagnostic.expectChanged.code) \(RoomDiagnostic.expectChanged.name)): they are the check; Reset brings them back"
            record(name, learner: id, passed: false, message: message)
            return Self.immediate(.object(["passed": .bool(false), "message": .string(message), "line": .int(1)]))
        }
        let limits = configuration.runLimits
        return startRun(kind: .check, text: text, name: name + ".pipe", learner: id, delivery: delivery) { [self] outcome, _ in
            var result: JSON
            switch outcome {
            case .finished(let r): result = r
            default: result = .object(["passed": .bool(false), "message": .string(Self.endedMessage(outcome, limits: limits))])
            }
            let passed = result["passed"]?.bool ?? false
            record(name, learner: id, passed: passed, message: passed ? nil : result["message"]?.string ?? "the check failed")
            return result
        }
    }

    private func record(_ exercise: String, learner id: String, passed: Bool, message: String?) {
        update(id) { record in
            var progress = record.progress[exercise] ?? ExerciseProgress()
            progress.checks += 1
            if passed {
                if !progress.passed { progress.passedAt = Self.now }
                progress.passed = true
                progress.lastMessage = nil
            } else {
                // Passed once stays passed (as in `plumb learn`, progress is not taken back);
                // the message still shows what this check found.
                progress.lastMessage = message
            }
            record.progress[exercise] = progress
        }
    }

    private func run(_ text: String, learner: LearnerRecord, delivery: RunDelivery) -> HTTPResponse {
        update(learner.id) { $0.playground = text }
        if let refused = Self.refusedCommands(text) { return Self.immediate(refused) }
        let limits = configuration.runLimits
        return startRun(kind: .run, text: text, name: "playground", learner: learner.id, delivery: delivery) { outcome, _ in
            Self.runResult(outcome, limits: limits)
        }
    }

    private func presentAPI(_ request: HTTPRequest) -> HTTPResponse {
        .json(200, presentJSON())
    }

    /// A result known without running anything, sent as the same stream a run sends.
    static func immediate(_ result: JSON) -> HTTPResponse {
        .text(200, JSON.object(["result": result]).encoded + "\n", type: "application/x-ndjson; charset=utf-8")
    }
}

extension JSON {
    /// This object with `other`'s fields added.
    public func merging(_ other: JSON) -> JSON {
        guard case .object(var fields) = self, case .object(let more) = other else { return self }
        for (key, value) in more { fields[key] = value }
        return .object(fields)
    }
}
