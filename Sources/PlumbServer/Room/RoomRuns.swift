import Foundation
import PlumbJSON
import PipeLanguage

/// Runs and checks: each in a child (`WorkerProcess`), in the room's line (`RunQueue`), one at a
/// time per learner, streamed back as newline-delimited JSON: `{"queued": N}` while waiting,
/// `{"event": …}` as the run goes, and one `{"result": …}` at the end.
final class RoomRuns: Sendable {
    /// The line: `slots` children at once, the rest waiting.
    let queue: RunQueue
    /// Learners with a run going: one at a time each.
    let busy = LockedState<Set<String>>([])
    private let worker: WorkerCommand
    let limits: RunLimits
    /// Where runs sent to a learner's event stream go.
    private let events: EventHub
    /// Told when the runs going or waiting change (the teacher's table shows them).
    private let changed: @Sendable () -> Void

    init(configuration: RoomConfiguration, events: EventHub, changed: @escaping @Sendable () -> Void) {
        queue = RunQueue(slots: configuration.capacity.slots, maxWaiting: configuration.capacity.maxWaiting)
        worker = configuration.worker
        limits = configuration.runLimits
        self.events = events
        self.changed = changed
    }

    enum RunKind: String {
        /// A playground run: its events as they happen, then the diagram.
        case run
        /// A check against the exercise.
        case check
        /// A step-through (`StepReply` in the child): every pause of the run, in one result.
        case step
        /// A comparison (`CompareReply` in the child): the pipeline pushed and pulled.
        case compare
    }

    /// Where a run's lines go: the response to its request (newline-delimited JSON), or the
    /// learner's event stream (`event: run`, each line with `"run": ID`), the request answered
    /// at once with 202.
    enum RunDelivery: Sendable {
        case response
        case events(learner: String, run: String)
    }

    /// Starts a run and answers with its stream.
    /// - Parameters:
    ///   - learner: the learner it counts against (one run at a time each); nil for the teacher.
    ///   - finish: makes the result line from how the child ended, the first events it sent (at
    ///     most `keptEvents`) and how many it sent; called on the run's own thread (it may save
    ///     progress).
    func start(
        kind: RunKind, text: String, name: String, learner: String?, delivery: RunDelivery = .response, diagramWidth: Int? = nil,
        finish: @escaping @Sendable (WorkerOutcome, [JSON], Int) -> JSON
    ) -> HTTPResponse {
        if let learner {
            let free = busy.withLock { $0.insert(learner).inserted }
            guard free else { return .error(429, "your last run is still going: wait for its result") }
        }
        if queue.counts.waiting >= queue.maxWaiting {
            if let learner { _ = busy.withLock { $0.remove(learner) } }
            return .error(503, "the room is busy: try again in a moment")
        }
        let stream = ResponseStream()
        let events = self.events
        // Each line of the run, to wherever it goes; false: nobody reads it any more.
        let send: @Sendable (JSON) -> Bool
        switch delivery {
        case .response: send = { stream.append(line: $0) }
        case .events(let id, let run):
            send = { line in
                events.send("run", line.merging(.object(["run": .string(run)])), to: { $0 == .learner(id) })
                return true
            }
        }
        let worker = self.worker
        let limits = self.limits
        changed()
        let thread = Thread { [self] in
            defer {
                if let learner { _ = busy.withLock { $0.remove(learner) } }
                stream.close()
                changed()
            }
            let kept = LockedState<(events: [JSON], all: Int)>(([], 0))
            let outcome = queue.run(place: { send(.object(["queued": .int($0)])) }) {
                WorkerProcess.run(kind: kind.rawValue, text: text, name: name, command: worker, limits: limits, diagramWidth: diagramWidth) {
                    event in
                    kept.withLock {
                        $0.all += 1
                        if $0.events.count < Self.keptEvents { $0.events.append(event) }
                    }
                    return send(.object(["event": event]))
                }
            }
            guard let outcome else {
                _ = send(.object(["result": .object(["error": .object(["message": .string("the room is busy: try again in a moment")])])]))
                return
            }
            let (events, all) = kept.withLock { $0 }
            _ = send(.object(["result": finish(outcome, events, all)]))
        }
        thread.name = "plumb-serve-run"
        thread.start()
        if case .events(_, let run) = delivery { return .json(202, .object(["run": .string(run)])) }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/x-ndjson; charset=utf-8")], body: .stream(stream))
    }

    /// The widest the presented pipeline's diagram is drawn: the present view scales it to its
    /// screen's width, and at 1280 px (1,248 px inside its margins) a picture this wide keeps
    /// its smallest text, a small marble label of 9.5 px, at 16 px.
    static let presentDiagramWidth = 740

    /// The events of a run the room keeps for its result (a capped run's diagram).
    static let keptEvents = 200

    /// The result line of a playground run (or the teacher's): the child's own, or why it ended;
    /// a run stopped at its cap of events or time has the diagram of what it sent before
    /// (`CappedRunDiagram`) and `"capped": true`.
    static func runResult(_ outcome: WorkerOutcome, limits: RunLimits, events: [JSON] = [], all: Int = 0) -> JSON {
        let message = endedMessage(outcome, limits: limits)
        switch outcome {
        case .finished(let result): return result
        case .outputLimit, .timedOut:
            var fields: [String: JSON] = ["error": .object(["message": .string(message)]), "capped": .bool(true)]
            if let svg = CappedRunDiagram.svg(events, why: message, all: all) { fields["svg"] = .string(svg) }
            return .object(fields)
        default: return .object(["error": .object(["message": .string(message)])])
        }
    }

    /// Why a child gave no result, in the learner's words.
    static func endedMessage(_ outcome: WorkerOutcome, limits: RunLimits) -> String {
        switch outcome {
        case .finished: return ""
        case .timedOut: return limits.message(.time)
        case .outputLimit: return limits.message(.output)
        case .memoryLimit: return limits.message(.memory)
        case .crashed(let message): return message
        }
    }
}
