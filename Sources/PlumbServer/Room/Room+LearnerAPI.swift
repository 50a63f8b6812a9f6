import Foundation
import PlumbJSON

/// The learner's endpoints, under `/api/`: each needs the room's token in `X-Plumb-Room`, and
/// (but `join`) the learner's `X-Plumb-Learner: ID:SECRET`; state changes are POSTs.
extension Room {
    /// `POST /api/join {"name": NAME}`: a new learner, `{"learner": "ID:SECRET", "name": NAME}`.
    func join(_ request: HTTPRequest) -> HTTPResponse {
        guard case .success(let body) = Self.object(request.body), let name = body["name"]?.string.flatMap(Roster.cleanName) else {
            return .error(400, "give your name: {\"name\": \"Ada\"}")
        }
        switch roster.join(name, client: request.client) {
        case .success(let record): return .json(200, .object(["learner": .string(record.id + ":" + record.secret), "name": .string(record.name)]))
        case .failure(let refusal): return refusal.response
        }
    }

    /// `GET /api/exercise?name=NAME`.
    func exercise(_ request: HTTPRequest, learner: LearnerRecord) -> HTTPResponse {
        guard let exercise = exercises.first(where: { $0.name == request.query["name"] }) else { return .error(404, "no such exercise") }
        return .json(200, exerciseDetail(exercise, learner: learner.id))
    }

    /// The body of a POST that may start a run: a JSON object, and where the run's lines go
    /// (`"via": "events", "run": ID`: the learner's event stream).
    private func runBody(_ request: HTTPRequest, learner: LearnerRecord) -> Result<([String: JSON], RoomRuns.RunDelivery), HTTPResponseError> {
        Self.object(request.body).flatMap { body in
            guard body["via"]?.string == "events" else { return .success((body, .response)) }
            guard let id = body["run"]?.string, Self.isRunID(id) else {
                return .failure(HTTPResponseError(.error(400, "a run sent to the event stream needs \"run\": an id of letters, digits, - and _")))
            }
            return .success((body, .events(learner: learner.id, run: id)))
        }
    }

    /// The exercise a run body names.
    private func exercise(named body: [String: JSON]) -> Result<RoomExercise, HTTPResponseError> {
        guard let exercise = exercises.first(where: { $0.name == body["exercise"]?.string }) else {
            return .failure(HTTPResponseError(.error(404, "no such exercise")))
        }
        return .success(exercise)
    }

    /// `POST /api/hint {"exercise": NAME}`: one more hint.
    func hint(_ request: HTTPRequest, learner: LearnerRecord) -> HTTPResponse {
        switch runBody(request, learner: learner).flatMap({ body, _ in exercise(named: body) }) {
        case .success(let exercise): return hint(exercise, learner: learner.id)
        case .failure(let refusal): return refusal.response
        }
    }

    /// `POST /api/reset {"exercise": NAME}`: the exercise's text as shipped.
    func reset(_ request: HTTPRequest, learner: LearnerRecord) -> HTTPResponse {
        switch runBody(request, learner: learner).flatMap({ body, _ in exercise(named: body) }) {
        case .success(let exercise):
            roster.update(learner.id) { $0.progress[exercise.name, default: ExerciseProgress()].text = nil }
            return .json(200, exerciseDetail(exercise, learner: learner.id))
        case .failure(let refusal): return refusal.response
        }
    }

    /// `POST /api/check {"exercise": NAME, "text": TEXT}`: checks the learner's text as `plumb learn` does.
    func check(_ request: HTTPRequest, learner: LearnerRecord) -> HTTPResponse {
        switch runBody(request, learner: learner).flatMap({ body, delivery in exercise(named: body).map { (body, delivery, $0) } }) {
        case .success(let (body, delivery, exercise)):
            guard let text = body["text"]?.string else { return .error(400, "check needs {\"exercise\": NAME, \"text\": TEXT}") }
            return check(exercise, text: text, learner: learner, delivery: delivery)
        case .failure(let refusal): return refusal.response
        }
    }

    /// `POST /api/run {"text": PIPELINE}`: runs the learner's playground.
    func run(_ request: HTTPRequest, learner: LearnerRecord) -> HTTPResponse {
        switch runBody(request, learner: learner) {
        case .success(let (body, delivery)):
            guard let text = body["text"]?.string else { return .error(400, "run needs {\"text\": PIPELINE}") }
            return run(text, learner: learner, delivery: delivery)
        case .failure(let refusal): return refusal.response
        }
    }

    /// `POST /api/step {"text": PIPELINE}`: the playground's Step: the text run in a child
    /// that steps its last pipeline through every instant, as `:step` does, and answers with
    /// every pause (`"steps"`: its time, what `:step` prints there, the diagram so far).
    func step(_ request: HTTPRequest, learner: LearnerRecord) -> HTTPResponse {
        playground(request, learner: learner, kind: .step)
    }

    /// `POST /api/compare {"text": PIPELINE}`: the playground's Compare: each pipeline run
    /// pushed and pulled as `:compare` runs it (`"comparisons"`: the events side by side, both
    /// diagrams on one axis, the verdict and its `why:` lines).
    func compare(_ request: HTTPRequest, learner: LearnerRecord) -> HTTPResponse {
        playground(request, learner: learner, kind: .compare)
    }

    /// The playground's text run in a child of `kind`, its result line as the child wrote it.
    private func playground(_ request: HTTPRequest, learner: LearnerRecord, kind: RoomRuns.RunKind) -> HTTPResponse {
        switch runBody(request, learner: learner) {
        case .success(let (body, delivery)):
            guard let text = body["text"]?.string else { return .error(400, "\(kind.rawValue) needs {\"text\": PIPELINE}") }
            roster.update(learner.id) { $0.playground = text }
            if let refused = Self.refusedCommands(text) { return Self.immediate(refused) }
            let limits = runs.limits
            return runs.start(kind: kind, text: text, name: "playground", learner: learner.id, delivery: delivery) { outcome, _, _ in
                RoomRuns.runResult(outcome, limits: limits)
            }
        case .failure(let refusal): return refusal.response
        }
    }

    /// A request body that must be a JSON object.
    static func object(_ body: [UInt8]) -> Result<[String: JSON], HTTPResponseError> {
        guard case .object(let fields)? = JSON.decode(body) else {
            return .failure(HTTPResponseError(.error(400, "the body must be a JSON object in UTF-8")))
        }
        return .success(fields)
    }

    func exerciseList(_ learner: LearnerRecord) -> JSON {
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
        roster.update(id) { record in
            if record.progress[exercise.name]?.opened == nil { record.progress[exercise.name, default: ExerciseProgress()].opened = Self.now }
            record.current = exercise.name
        }
        let progress = roster.record(id)?.progress[exercise.name] ?? ExerciseProgress()
        return .object([
            "name": .string(exercise.name), "lesson": .array(exercise.lesson.map(JSON.string)),
            "hints": .array(exercise.hints.prefix(progress.hintsUsed).map(JSON.string)), "hintsTotal": .int(exercise.hints.count),
            "text": .string(progress.text ?? exercise.code), "passed": .bool(progress.passed),
            "message": progress.lastMessage.map(JSON.string) ?? .null,
        ])
    }

    private func hint(_ exercise: RoomExercise, learner id: String) -> HTTPResponse {
        var shown = 0
        roster.update(id) { record in
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

    private func check(_ exercise: RoomExercise, text: String, learner: LearnerRecord, delivery: RoomRuns.RunDelivery) -> HTTPResponse {
        let id = learner.id
        let name = exercise.name
        roster.update(id) { $0.progress[name, default: ExerciseProgress()].text = text }
        if let refused = Self.refusedCommands(text) { return Self.immediate(.object(["passed": .bool(false)]).merging(refused)) }
        if RoomExercise.expectLines(of: text) != exercise.expectLines {
            let message =
                "keep the exercise's expect lines as they are (\(RoomDiagnostic.expectChanged.code) \(RoomDiagnostic.expectChanged.name)): they are the check; Reset brings them back"
            record(name, learner: id, passed: false, message: message)
            return Self.immediate(.object(["passed": .bool(false), "message": .string(message), "line": .int(1)]))
        }
        let limits = runs.limits
        return runs.start(kind: .check, text: text, name: name + ".pipe", learner: id, delivery: delivery) { [self] outcome, _, _ in
            var result: JSON
            switch outcome {
            case .finished(let r): result = r
            default: result = .object(["passed": .bool(false), "message": .string(RoomRuns.endedMessage(outcome, limits: limits))])
            }
            let passed = result["passed"]?.bool ?? false
            record(name, learner: id, passed: passed, message: passed ? nil : result["message"]?.string ?? "the check failed")
            return result
        }
    }

    private func record(_ exercise: String, learner id: String, passed: Bool, message: String?) {
        roster.update(id) { record in
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
            record.current = exercise
        }
    }

    private func run(_ text: String, learner: LearnerRecord, delivery: RoomRuns.RunDelivery) -> HTTPResponse {
        roster.update(learner.id) { $0.playground = text }
        if let refused = Self.refusedCommands(text) { return Self.immediate(refused) }
        let limits = runs.limits
        return runs.start(kind: .run, text: text, name: "playground", learner: learner.id, delivery: delivery) { outcome, events, all in
            RoomRuns.runResult(outcome, limits: limits, events: events, all: all)
        }
    }

    /// A result known without running anything, sent as the same stream a run sends.
    static func immediate(_ result: JSON) -> HTTPResponse {
        .text(200, JSON.object(["result": result]).encoded + "\n", type: "application/x-ndjson; charset=utf-8")
    }
}
