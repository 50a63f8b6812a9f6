/// A run-time failure of a pipeline: a closure's type error or overflow, `fail "message"`, a
/// subject's `fail`, a timeout. `location` names the closure or stage that failed, when known.
public struct PipelineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for people.
    public var message: String
    /// The closure or stage responsible, when known.
    public var location: SourceLocation?
    /// The stable id of the problem, when the language raised it (nil for a user's `fail "…"`).
    public var id: DiagnosticID?

    /// Creates an error.
    public init(message: String, location: SourceLocation? = nil) {
        self.message = message
        self.location = location
    }

    /// An error from one of the language's own messages.
    init(_ message: Message, location: SourceLocation?) {
        self.message = message.text
        self.location = location
        self.id = message.id
    }

    /// How a line showing this failure begins: `failed[E602]` for an error the language raised
    /// (so `plumb help E602` explains it), `failed` for a user's `fail "…"`.
    public var heading: String {
        id.map { "failed[\($0.code)]" } ?? "failed"
    }

    /// The message, followed by ` (at file:line:col)` when the location is known.
    public var description: String {
        guard let location else { return message }
        return "\(message) (at \(location))"
    }

    /// Converts any error reaching a pipeline's end into a `PipelineError`.
    static func from(_ error: any Error) -> PipelineError {
        if let e = error as? PipelineError { return e }
        if error is CancellationError { return PipelineError(message: "cancelled") }
        return PipelineError(message: String(describing: error))
    }
}

/// Which clock a runtime uses.
public enum ClockMode: Sendable, Hashable {
    /// Wall-clock time: a dispatch queue scheduler and `ContinuousClock`.
    case real
    /// Simulated time: a `VirtualTimeScheduler`, its `VirtualClock` and a manually drained executor.
    case virtual
}

/// What a running pipeline reports, in order, serialised.
public enum PipelineEvent: Sendable, Hashable {
    case subscribed
    case value(Value)
    /// A value pulled by the `values` terminal (`for try await`).
    case next(Value)
    case finished
    case failed(PipelineError)
    case cancelled
    /// `:trace on`: a stage's lifecycle event (`subscribe`, `request(unlimited)`, `value 1`,
    /// `finished`, `failed: …`, `cancel`), the stage's index (0 = source) and nesting depth.
    case trace(stage: Int, name: String, depth: Int, event: String, thread: String)
    /// A line a stage writes as the run goes: `print`'s Combine lines, a `handleEvents` hook's
    /// message, an eager source's note (`future started`); `stage` is its index (0 = source).
    case output(OutputKind, stage: Int, text: String)
    /// Recording for marble diagrams (`record: true`): lane `lane` opened, or a signal on it.
    case lane(Int, LaneSignal)

    /// A diagram lane's end (finished, failed, cancelled): still delivered after the run's own
    /// end, since a cancelled consuming task ends its async lanes when it next runs.
    public var isLaneEnd: Bool {
        switch self {
        case .lane(_, .finished), .lane(_, .failed), .lane(_, .cancelled): true
        default: false
        }
    }
}

/// What a recorded lane reports: first `opened` (what it is), then its signals in order. A lane
/// that is subscribed again (under a `retry`) reports `subscribed` again: a new attempt.
public enum LaneSignal: Sendable, Hashable {
    /// A stage of the pipeline (`parent` nil, `stage` its index) or an inner publisher's output
    /// (`parent` the lane of the stage that made it: flatMap, switchToLatest, catch, deferred,
    /// merge's argument, …). `label` is the stage's text.
    case opened(label: String, stage: Int, parent: Int?)
    case subscribed

    /// The `stage` of a subscriber's lane: one subscription to a `share`d binding, drawn under
    /// the stage that first named the binding (`subscriber 2`), where `label` is its name.
    public static let subscriberStage = -1
    case value(Value)
    case finished
    /// The failure, with its id when the language raised it (`failed[E602]` wherever it is shown).
    case failed(PipelineError)
    case cancelled
    /// An async stage's consumer called `next()` on it (a pull): drawn as a mark under the lane,
    /// not an event of the lane (`expect marbles` and the printed events leave it out).
    case pulled
}

/// Who wrote an `.output` line.
public enum OutputKind: String, Sendable, Hashable {
    /// The note a future writes when its work begins as it is made, before anyone subscribes
    /// (bound with `let`, or used directly). `expect started` looks for it.
    public static let futureStarted = "future started: it runs now, before anyone subscribes"
    /// The note a future writes when a closure makes it while the run goes (`deferred` at each
    /// subscription, `flatMap` for a value), so it starts as it is subscribed.
    public static let futureStartedOnSubscription = "future started: made now, by the closure around it, for this subscription"

    /// Whether `text` is either note of a future's start.
    public static func isFutureStart(_ text: String) -> Bool {
        text == futureStarted || text == futureStartedOnSubscription
    }

    /// `print "label"`: Combine's own lines (`label: receive value: (1)`).
    case print
    /// A `handleEvents` hook (`receiveSubscription: "start query"`).
    case hook
    /// What the language says about an eager source (`future started`).
    case note
}

/// `expect …`: what the shell checks against the last pipeline.
public enum Expectation: Sendable, Hashable {
    case values([Value])
    case finished
    case failed(String)
    case count(Int)
    case time(Duration)
    /// The last pipeline's events in marble notation, one frame of `frame` per character.
    case marbles(String, frame: Duration)
    /// How many times binding `binding`'s source was subscribed since its `let` ran
    /// (`Session.subscriptionCount(of:)`): one for a `share`d upstream, one per attempt under `retry`.
    case subscriptions(binding: String, count: Int)
    /// When a future's work began, after the last pipeline's subscription: a `deferred` future
    /// starts when it is subscribed; an eager one started before, when it was made.
    case started(Duration)
}

/// What the shell must do after `Session.execute`.
public enum Action: Sendable {
    /// Start this pipeline (foreground, or background when `isBackground`).
    case run(Pipeline)
    /// Check an expectation against the last pipeline.
    case expect(Expectation, SourceLocation)
    /// Done: the statement bound a name or sent to a subject; nothing to show.
    case done
    /// A send to a channel (`c.send 1`): the host starts it and waits until a reader takes the
    /// value, saying that it waits, with Ctrl-C to give up.
    case send(ChannelSend)
}
