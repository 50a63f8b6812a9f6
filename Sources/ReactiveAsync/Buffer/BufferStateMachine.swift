/// The buffer between `AsyncBufferSequence`'s task (the producer, iterating the base) and its
/// iterator (the one consumer), without threads: it returns actions that `BufferStorage` performs
/// after its lock.
///
/// `Consumer` is what a suspended `next()` leaves behind; `Producer` is what the task leaves when
/// a `.bounded` buffer is full (resumed with `true` to go on, `false` to stop). Unit tests use
/// plain values for both.
struct BufferStateMachine<Element, Failure: Error, Consumer, Producer> {
    /// How elements are kept when the consumer is slower than the base.
    enum Policy: Equatable {
        /// Up to the limit; then the task stops pulling from the base until there is room.
        case bounded(Int)
        /// Every element.
        case unbounded
        /// Up to the limit; then the oldest element is dropped for the new one.
        case bufferingNewest(Int)
        /// Up to the limit; then the new element is dropped.
        case bufferingOldest(Int)
    }

    private enum State {
        /// No task yet: it starts at the first `next()` (as the package's buffer does).
        case idle
        /// The task runs; `consumer` waits only while `buffer` is empty.
        case buffering(buffer: FIFOQueue<Element>, consumer: Consumer?, producer: Producer?)
        /// The base ended; the buffer drains, then the failure (if any) is thrown once.
        case draining(buffer: FIFOQueue<Element>, failure: Failure?)
        /// Terminal: the consumer saw the end, was cancelled, or dropped its iterator.
        case done
        /// Only inside a method that changes a buffer: its payload is moved out first, so the
        /// queue has one owner and is changed in place (matched out of `state` while `state`
        /// still held it, every `append` copied the whole queue).
        case modifying
    }

    let policy: Policy
    private var state = State.idle

    init(policy: Policy) {
        self.policy = policy
    }

    // MARK: The consumer

    enum NextAction {
        /// Start the base's task, then suspend.
        case startTaskAndSuspend
        /// Return this element; resume the producer (waiting for room) if given.
        case element(Element, resumeProducer: Producer?)
        /// `.unbounded` only: return `first`, and the consumer keeps `rest` (every other element
        /// that was buffered, in order) and returns them before it asks again: one hand-off for
        /// all of them. Nothing observable changes: an unbounded buffer never drops or waits.
        case elements(first: Element, rest: FIFOQueue<Element>)
        /// Return this: nil at the end, or the base's failure (once).
        case terminal(Result<Element?, Failure>)
        /// Nothing buffered: suspend (`nextSuspended`).
        case suspend
    }

    /// A `next()` before it suspends; `batching`: an `.unbounded` buffer may hand over every
    /// buffered element at once (`.elements`).
    mutating func next(batching: Bool = false) -> NextAction {
        switch state {
        case .idle:
            state = .buffering(buffer: FIFOQueue(), consumer: nil, producer: nil)
            return .startTaskAndSuspend
        case .buffering(var buffer, let consumer, let producer):
            state = .modifying
            if batching, policy == .unbounded, buffer.count > 1, let first = buffer.popFirst() {
                state = .buffering(buffer: FIFOQueue(), consumer: consumer, producer: producer)
                return .elements(first: first, rest: buffer)
            }
            guard let element = buffer.popFirst() else {
                state = .buffering(buffer: buffer, consumer: consumer, producer: producer)
                return .suspend
            }
            state = .buffering(buffer: buffer, consumer: consumer, producer: nil)
            return .element(element, resumeProducer: producer)
        case .draining(var buffer, let failure):
            state = .modifying
            if batching, policy == .unbounded, buffer.count > 1, let first = buffer.popFirst() {
                state = .draining(buffer: FIFOQueue(), failure: failure)
                return .elements(first: first, rest: buffer)
            }
            if let element = buffer.popFirst() {
                state = .draining(buffer: buffer, failure: failure)
                return .element(element, resumeProducer: nil)
            }
            state = .done
            return .terminal(failure.map { .failure($0) } ?? .success(nil))
        case .done, .modifying:
            return .terminal(.success(nil))
        }
    }

    enum NextSuspendedAction {
        /// Stay suspended until the task delivers.
        case none
        /// Resume the consumer at once with this.
        case resumeConsumer(Consumer, Result<Element?, Failure>, resumeProducer: Producer?)
        /// The consumer's task is cancelled: resume it with nil, stop the producer, cancel the task.
        case cancel(Consumer, stopProducer: Producer?)
    }

    /// A `next()` that suspends with `consumer`; `isCancelled` is read under the lock the
    /// cancellation handler takes, so one of the two always sees the other.
    mutating func nextSuspended(consumer: Consumer, isCancelled: Bool) -> NextSuspendedAction {
        switch state {
        case .buffering(_, _, let producer) where isCancelled:
            state = .done
            return .cancel(consumer, stopProducer: producer)
        case .buffering(let buffer, _, let producer) where buffer.isEmpty:
            state = .buffering(buffer: buffer, consumer: consumer, producer: producer)
            return .none
        case .idle, .buffering, .draining, .done, .modifying:
            switch next() {
            case .element(let element, let producer): return .resumeConsumer(consumer, .success(element), resumeProducer: producer)
            case .elements(let first, _):
                assertionFailure("next() hands over one element at a time")
                return .resumeConsumer(consumer, .success(first), resumeProducer: nil)
            case .terminal(let result): return .resumeConsumer(consumer, result, resumeProducer: nil)
            case .startTaskAndSuspend, .suspend: return .resumeConsumer(consumer, .success(nil), resumeProducer: nil)
            }
        }
    }

    /// The task of a suspended `next()` was cancelled: returns the consumer and producer to
    /// resume (with nil and `false`) and ends the buffer; nil if nobody was suspended.
    mutating func consumerCancelled() -> (consumer: Consumer, producer: Producer?)? {
        guard case .buffering(_, let consumer?, let producer) = state else { return nil }
        state = .done
        return (consumer, producer)
    }

    /// The iterator was dropped: ends the buffer (its elements are discarded) and returns the
    /// producer to stop, and whether a task runs that must be cancelled.
    mutating func iteratorDropped() -> (producer: Producer?, cancelTask: Bool) {
        switch state {
        case .idle:
            state = .done
            return (nil, false)
        case .buffering(_, _, let producer):
            state = .done
            return (producer, true)
        case .draining, .done, .modifying:
            state = .done
            return (nil, false)
        }
    }

    // MARK: The producer (the base's task)

    enum WaitForRoomAction {
        /// Pull the next element from the base.
        case proceed
        /// The `.bounded` buffer is full: suspend (`waitForRoom(producer:)`).
        case suspend
        /// The buffer ended: stop iterating.
        case stop
    }

    /// Before the task pulls an element.
    func waitForRoom() -> WaitForRoomAction {
        guard case .buffering(let buffer, _, _) = state else { return .stop }
        if case .bounded(let limit) = policy, buffer.count >= limit { return .suspend }
        return .proceed
    }

    /// The task suspends with `producer` until there is room: returns the value to resume it
    /// with at once, or nil to keep it suspended.
    mutating func waitForRoom(producer: Producer) -> Bool? {
        switch waitForRoom() {
        case .proceed: return true
        case .stop: return false
        case .suspend:
            guard case .buffering(let buffer, let consumer, _) = state else { return false }
            state = .buffering(buffer: buffer, consumer: consumer, producer: producer)
            return nil
        }
    }

    enum ProducedAction {
        /// Buffered (or dropped by the policy); keep iterating.
        case none
        /// Buffered, and the `.bounded` buffer is now full: wait for room
        /// (`waitForRoom(producer:)`) before pulling again.
        case full
        /// The consumer was waiting: resume it with the element; keep iterating.
        case resumeConsumer(Consumer)
        /// The buffer ended: stop iterating.
        case stop
    }

    /// The base produced `element`.
    mutating func produced(_ element: Element) -> ProducedAction {
        guard case .buffering(var buffer, let consumer, let producer) = state else { return .stop }
        state = .modifying
        if let consumer {
            state = .buffering(buffer: buffer, consumer: nil, producer: producer)
            return .resumeConsumer(consumer)
        }
        switch policy {
        case .bounded, .unbounded:
            buffer.append(element)
        case .bufferingNewest(let limit):
            if buffer.count >= limit { _ = buffer.popFirst() }
            buffer.append(element)
        case .bufferingOldest(let limit):
            if buffer.count < limit { buffer.append(element) }
        }
        state = .buffering(buffer: buffer, consumer: nil, producer: producer)
        if case .bounded(let limit) = policy, buffer.count >= limit { return .full }
        return .none
    }

    /// The base ended (`failure` nil: it finished): returns the waiting consumer to resume with
    /// the end, if one waits; otherwise the end is kept behind the buffered elements.
    mutating func baseEnded(failure: Failure?) -> (Consumer, Result<Element?, Failure>)? {
        guard case .buffering(let buffer, let consumer, _) = state else { return nil }
        if let consumer {
            state = .done
            return (consumer, failure.map { .failure($0) } ?? .success(nil))
        }
        state = .draining(buffer: buffer, failure: failure)
        return nil
    }
}
