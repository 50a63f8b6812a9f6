/// The decisions of `debounce`, without threads or a scheduler: the storage feeds it events and
/// carries out what it returns (start a timer for a generation, deliver a value).
///
/// Every value starts a new generation; only the timer of the latest generation may deliver, and
/// only with demand (otherwise the value is dropped). A completion drops the pending value, as
/// Combine does.
struct DebounceStateMachine<Value> {
    private(set) var demand = Subscribers.Demand.none
    private var pending: Value?
    private(set) var generation: UInt64 = 0
    private var isOver = false

    mutating func request(_ more: Subscribers.Demand) {
        if !isOver { demand += more }
    }

    /// A value arrived: returns the generation its timer must carry (`nil` once over).
    mutating func receive(_ value: Value) -> UInt64? {
        guard !isOver else { return nil }
        generation &+= 1
        pending = value
        return generation
    }

    /// Whether a timer for `generation` is still wanted.
    func isCurrent(_ generation: UInt64) -> Bool { !isOver && generation == self.generation }

    /// The timer of `generation` fired: the value to deliver, if it is still the latest and the
    /// subscriber has demand.
    mutating func timerFired(_ generation: UInt64) -> Value? {
        guard isCurrent(generation), let value = pending else { return nil }
        pending = nil
        guard demand > 0 else { return nil }
        demand -= 1
        return value
    }

    /// Demand the subscriber returned from `receive`.
    mutating func add(_ more: Subscribers.Demand) {
        if !isOver { demand += more }
    }

    /// Upstream completed or the subscriber cancelled: the pending value is dropped.
    mutating func end() {
        isOver = true
        pending = nil
    }
}
