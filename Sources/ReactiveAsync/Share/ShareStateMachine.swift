/// The shared buffer of `share()`, without threads: one producer (the task iterating the base)
/// and any number of sides (iterators), each with its own position in one buffer that holds only
/// what the slowest side has not read. It returns actions that `ShareStorage` performs after
/// its lock. Unit tests use plain values for `Consumer` and `Producer`.
struct ShareStateMachine<Element, Failure: Error, Consumer, Producer> {
    /// How the buffer is limited (the package's `AsyncBufferSequencePolicy`, as `share` reads it).
    enum Policy: Equatable {
        /// The base is not pulled while `limit` elements wait for the slowest side.
        case bounded(Int)
        case unbounded
        /// Beyond the limit the oldest element is dropped (slow sides skip it).
        case bufferingNewest(Int)
        /// Beyond the limit the new element is dropped for every side.
        case bufferingOldest(Int)
    }

    /// A side's place; not generic, so walking the sides needs no type metadata.
    private typealias Side = ShareSidePosition

    /// The sides by id, in the order they registered, with their suspended `next()`s beside them.
    /// A few sides at most, so a scan beats hashing; unlike a `Dictionary` (which `produced`
    /// copied once per element, walking it while changing it) it is changed in place.
    private struct SideTable {
        private var ids: [Int] = []
        /// The sides, in the order of `ids`; changed in place by slot.
        var entries: [Side] = []
        /// Each side's suspended `next()`, by slot; `entries[slot].waiting` says whether it is set.
        private var consumers: [Consumer?] = []

        var isEmpty: Bool { ids.isEmpty }

        /// The side registered as `id`; setting nil removes it, setting a new id adds it.
        subscript(id: Int) -> Side? {
            get {
                guard let slot = ids.firstIndex(of: id) else { return nil }
                return entries[slot]
            }
            set {
                let slot = ids.firstIndex(of: id)
                switch (slot, newValue) {
                case (let slot?, let side?): entries[slot] = side
                case (let slot?, nil):
                    ids.remove(at: slot)
                    entries.remove(at: slot)
                    consumers.remove(at: slot)
                case (nil, let side?):
                    ids.append(id)
                    entries.append(side)
                    consumers.append(nil)
                case (nil, nil): break
                }
            }
        }

        /// The suspended `next()` of side `id`, if it waits.
        func consumer(of id: Int) -> Consumer? {
            guard let slot = ids.firstIndex(of: id) else { return nil }
            return consumers[slot]
        }

        /// Side `id` waits with `consumer`.
        mutating func setConsumer(_ consumer: Consumer, of id: Int) {
            guard let slot = ids.firstIndex(of: id) else { return }
            consumers[slot] = consumer
            entries[slot].waiting = true
        }

        /// Takes the suspended `next()` of the side in `slot`, if it waits.
        mutating func takeConsumer(at slot: Int) -> Consumer? {
            guard entries[slot].waiting else { return nil }
            entries[slot].waiting = false
            defer { consumers[slot] = nil }
            return consumers[slot]
        }
    }

    private enum Termination {
        case finished
        case failed(Failure)
    }

    let policy: Policy
    private var sides = SideTable()
    private var nextSideID = 0
    private var buffer: [Element] = []
    /// The absolute index of `buffer[0]`.
    private var bufferStart = 0
    private var termination: Termination?
    private var taskStarted = false
    private var stopped = false
    private var producer: Producer?
    private var sequenceAlive = true

    init(policy: Policy) {
        self.policy = policy
    }

    private var bufferEnd: Int { bufferStart + buffer.count }

    // MARK: Sides

    /// A new iterator: it starts at the end of the buffer (no replay).
    mutating func registerSide() -> Int {
        nextSideID += 1
        sides[nextSideID] = Side(position: bufferEnd)
        return nextSideID
    }

    enum NextAction {
        case element(Element, resumeProducer: Producer?)
        case terminal(Result<Element?, Failure>)
        /// Suspend (`nextSuspended`); start the base's task first when `startTask`.
        case suspend(startTask: Bool)
    }

    /// A side's `next()` before it suspends.
    mutating func next(side id: Int) -> NextAction {
        guard var side = sides[id] else { return .terminal(.success(nil)) }
        if side.position < bufferEnd {
            let element = buffer[side.position - bufferStart]
            side.position += 1
            sides[id] = side
            trim()
            return .element(element, resumeProducer: takeProducerIfReady())
        }
        if let termination {
            switch termination {
            case .failed(let failure) where !side.sawFailure:
                side.sawFailure = true
                sides[id] = side
                return .terminal(.failure(failure))
            default:
                return .terminal(.success(nil))
            }
        }
        let start = !taskStarted
        taskStarted = true
        return .suspend(startTask: start)
    }

    enum NextSuspendedAction {
        case none(resumeProducer: Producer?)
        case resumeConsumer(Consumer, Result<Element?, Failure>, resumeProducer: Producer?)
    }

    /// A side's `next()` that suspends with `consumer`; `isCancelled` is read under the lock the
    /// cancellation handler takes. A cancelled side leaves the shared iteration.
    mutating func nextSuspended(side id: Int, consumer: Consumer, isCancelled: Bool) -> NextSuspendedAction {
        if isCancelled {
            let producer = removeSide(id)
            return .resumeConsumer(consumer, .success(nil), resumeProducer: producer)
        }
        switch next(side: id) {
        case .element(let element, let producer):
            return .resumeConsumer(consumer, .success(element), resumeProducer: producer)
        case .terminal(let result):
            return .resumeConsumer(consumer, result, resumeProducer: nil)
        case .suspend:
            sides.setConsumer(consumer, of: id)
            return .none(resumeProducer: takeProducerIfReady())
        }
    }

    /// The task of a side's suspended `next()` was cancelled: the side leaves; returns its
    /// consumer (to resume with nil) and the producer to resume, if any.
    mutating func nextCancelled(side id: Int) -> (consumer: Consumer?, producer: Producer?) {
        let consumer = sides.consumer(of: id)
        guard consumer != nil else { return (nil, nil) }
        return (consumer, removeSide(id))
    }

    /// A side's iterator was dropped. Returns the producer to resume (with `false` when the
    /// iteration stops) and whether the base's task must be cancelled.
    mutating func unregisterSide(_ id: Int) -> (producer: Producer?, resumeWith: Bool, cancelTask: Bool) {
        let producer = removeSide(id)
        if let stop = stopIfUnused() { return stop }
        return (producer, true, false)
    }

    /// Every copy of the shared sequence is gone: no side can be added any more.
    mutating func sequenceDropped() -> (producer: Producer?, resumeWith: Bool, cancelTask: Bool) {
        sequenceAlive = false
        return stopIfUnused() ?? (nil, true, false)
    }

    // MARK: The producer

    enum WaitAction {
        case proceed
        case suspend
        case stop
    }

    /// Before the task pulls an element: it waits for room (`.bounded`) and for a side waiting.
    func waitForDemand() -> WaitAction {
        if stopped || termination != nil { return .stop }
        return isReady ? .proceed : .suspend
    }

    /// The task suspends with `producer`: returns what to resume it with at once, or nil.
    mutating func waitForDemand(producer: Producer) -> Bool? {
        switch waitForDemand() {
        case .proceed: return true
        case .stop: return false
        case .suspend:
            self.producer = producer
            return nil
        }
    }

    /// The base produced `element`: returns the waiting sides' consumers to resume with it.
    mutating func produced(_ element: Element) -> InlineList<Consumer> {
        guard !stopped else { return InlineList() }
        if case .bufferingOldest(let limit) = policy, buffer.count >= limit { return InlineList() }
        let index = bufferEnd
        buffer.append(element)
        var resumed = InlineList<Consumer>()
        for slot in sides.entries.indices where sides.entries[slot].position == index {
            guard let consumer = sides.takeConsumer(at: slot) else { continue }
            resumed.append(consumer)
            sides.entries[slot].position = index + 1
        }
        if case .bufferingNewest(let limit) = policy, buffer.count > limit {
            let excess = buffer.count - limit
            buffer.removeFirst(excess)
            bufferStart += excess
            for slot in sides.entries.indices where sides.entries[slot].position < bufferStart { sides.entries[slot].position = bufferStart }
        }
        trim()
        return resumed
    }

    /// The base ended: returns every waiting consumer with what it gets.
    mutating func baseEnded(failure: Failure?) -> [(Consumer, Result<Element?, Failure>)] {
        guard termination == nil, !stopped else { return [] }
        termination = failure.map { .failed($0) } ?? .finished
        var resumed: [(Consumer, Result<Element?, Failure>)] = []
        for slot in sides.entries.indices {
            guard let consumer = sides.takeConsumer(at: slot) else { continue }
            if let failure {
                sides.entries[slot].sawFailure = true
                resumed.append((consumer, .failure(failure)))
            } else {
                resumed.append((consumer, .success(nil)))
            }
        }
        return resumed
    }

    // MARK: Helpers

    private var isReady: Bool {
        if case .bounded(let limit) = policy, buffer.count >= max(limit, 1) { return false }
        return sides.entries.contains { $0.waiting }
    }

    private mutating func takeProducerIfReady() -> Producer? {
        guard producer != nil, isReady || stopped else { return nil }
        defer { producer = nil }
        return producer
    }

    private mutating func removeSide(_ id: Int) -> Producer? {
        sides[id] = nil
        trim()
        return takeProducerIfReady()
    }

    /// Drops what every side has read.
    private mutating func trim() {
        // A loop, not `map(_:).min()`: this runs for every element and must not allocate.
        var oldest = bufferEnd
        for side in sides.entries where side.position < oldest { oldest = side.position }
        let drop = oldest - bufferStart
        guard drop > 0 else { return }
        buffer.removeFirst(drop)
        bufferStart = oldest
    }

    private mutating func stopIfUnused() -> (producer: Producer?, resumeWith: Bool, cancelTask: Bool)? {
        guard !sequenceAlive, sides.isEmpty, !stopped else { return nil }
        stopped = true
        buffer.removeAll()
        let producer = self.producer
        self.producer = nil
        return (producer, false, taskStarted)
    }
}

/// One side of `share()`: where it reads in the buffer, whether its `next()` waits, and whether it
/// has been told of the failure.
private struct ShareSidePosition {
    var position: Int
    var waiting = false
    var sawFailure = false
}
