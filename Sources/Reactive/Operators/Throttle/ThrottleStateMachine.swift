/// The decisions of `throttle`, without threads or a scheduler: the storage feeds it events and
/// the current time, and carries out what it returns (schedule an emission, deliver).
///
/// Rules (see `Publisher.throttle(for:scheduler:latest:)`): a value that finds no emission
/// scheduled is emitted at `max(now, lastEmission + interval)` and takes one unit of demand; a
/// value that finds one scheduled replaces the held value (`latest`) or is dropped; a value that
/// would start an emission with no demand is dropped; a completion rides with the held value, or
/// is emitted at once when nothing is held.
struct ThrottleStateMachine<Value, Failure: Error, Time: Strideable> {
    let interval: Time.Stride
    let latest: Bool
    private(set) var demand = Subscribers.Demand.none
    private var held: Value?
    private var heldCompletion: Subscribers.Completion<Failure>?
    /// Whether an emission is scheduled (for `held`, `heldCompletion`, or both).
    private(set) var isScheduled = false
    private var lastEmission: Time?
    private(set) var isCancelled = false
    private var isFinished = false

    init(interval: Time.Stride, latest: Bool) {
        self.interval = interval
        self.latest = latest
    }

    mutating func request(_ more: Subscribers.Demand) {
        if !isCancelled, !isFinished { demand += more }
    }

    /// A value arrived at `now`; returns when to schedule an emission, if one must be scheduled.
    mutating func receive(_ value: Value, now: Time) -> Time? {
        guard !isCancelled, !isFinished else { return nil }
        if isScheduled {
            // The held value already took its demand; a newer one may replace it.
            if latest, held != nil { held = value }
            return nil
        }
        guard demand > 0 else { return nil }
        demand -= 1
        held = value
        isScheduled = true
        guard let last = lastEmission else { return now }
        return Swift.max(now, last.advanced(by: interval))
    }

    /// Upstream completed at `now`; returns when to schedule an emission, if one must be scheduled
    /// (with a value held, the completion waits for it).
    mutating func receive(completion: Subscribers.Completion<Failure>, now: Time) -> Time? {
        guard !isCancelled, !isFinished else { return nil }
        isFinished = true
        heldCompletion = completion
        if isScheduled { return nil }
        isScheduled = true
        return now
    }

    /// The scheduled emission is due at `now`: what to deliver, in order.
    mutating func emit(now: Time) -> (value: Value?, completion: Subscribers.Completion<Failure>?)? {
        guard !isCancelled, isScheduled else { return nil }
        isScheduled = false
        defer {
            held = nil
            heldCompletion = nil
        }
        if held != nil { lastEmission = now }
        return (held, heldCompletion)
    }

    /// Demand the subscriber returned from `receive`.
    mutating func add(_ more: Subscribers.Demand) {
        if !isCancelled { demand += more }
    }

    mutating func cancel() {
        isCancelled = true
        held = nil
        heldCompletion = nil
    }
}
