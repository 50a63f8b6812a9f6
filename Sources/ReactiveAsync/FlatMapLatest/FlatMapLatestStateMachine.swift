/// `flatMapLatest` without threads: the outer task announces each base element (a new
/// generation of inner sequence), inner tasks offer elements tagged with their generation, and
/// the one consumer takes them. Elements of an older generation are refused, so nothing from a
/// replaced inner sequence is delivered after the switch. Returns actions that
/// `FlatMapLatestStorage` performs after its lock; unit tests use plain values.
struct FlatMapLatestStateMachine<Element, Consumer, Producer> {
    private struct Offer {
        let generation: Int
        let element: Element
        let producer: Producer
    }

    private var generation = 0
    private var innerActive = false
    private var outerFinished = false
    private var started = false
    private var consumer: Consumer?
    private var offer: Offer?
    /// Set once: nil (finished) or the failure still to throw.
    private var termination: Result<Void, any Error>?

    init() {}

    enum NextAction {
        case startTasks
        case element(Element, resumeProducer: Producer)
        case terminal(Result<Element?, any Error>)
        case suspend
    }

    /// The consumer's `next()` before it suspends.
    mutating func next() -> NextAction {
        if let offer {
            self.offer = nil
            return .element(offer.element, resumeProducer: offer.producer)
        }
        if let result = takeTermination() { return .terminal(result) }
        if !started {
            started = true
            return .startTasks
        }
        return .suspend
    }

    /// The consumer suspends with `consumer`: returns what to resume it with at once, if anything.
    mutating func nextSuspended(consumer: Consumer, isCancelled: Bool) -> (Result<Element?, any Error>, Producer?)? {
        if isCancelled { return (.success(nil), nil) }
        switch next() {
        case .element(let element, let producer): return (.success(element), producer)
        case .terminal(let result): return (result, nil)
        case .startTasks, .suspend:
            self.consumer = consumer
            return nil
        }
    }

    /// A new base element: returns the new generation and an older offer's producer to refuse.
    mutating func newInner() -> (generation: Int, refuse: Producer?)? {
        guard termination == nil else { return nil }
        generation += 1
        innerActive = true
        let stale = offer?.producer
        offer = nil
        return (generation, stale)
    }

    enum OfferAction {
        /// Refused (stale generation or terminated): the inner task stops.
        case refuse(Producer)
        /// Taken by the waiting consumer: resume it with the element and the producer with true.
        case deliver(Consumer, Producer)
        /// Kept until the consumer asks.
        case none
    }

    /// An inner task offers `element` and suspends with `producer` until it is taken.
    mutating func offer(_ element: Element, generation: Int, producer: Producer) -> OfferAction {
        guard generation == self.generation, termination == nil else { return .refuse(producer) }
        if let consumer {
            self.consumer = nil
            return .deliver(consumer, producer)
        }
        offer = Offer(generation: generation, element: element, producer: producer)
        return .none
    }

    /// The inner sequence of `generation` ended (`failure` nil: finished); returns a consumer
    /// to resume with the end of everything, if it came.
    mutating func innerEnded(generation: Int, failure: (any Error)?) -> (Consumer, Result<Element?, any Error>)? {
        guard generation == self.generation, termination == nil else { return nil }
        innerActive = false
        if let failure { return terminate(.failure(failure)) }
        return outerFinished ? terminate(.success(())) : nil
    }

    /// The base ended: the sequence ends once the current inner one has.
    mutating func outerEnded(failure: (any Error)?) -> (Consumer, Result<Element?, any Error>)? {
        guard termination == nil else { return nil }
        outerFinished = true
        if let failure { return terminate(.failure(failure)) }
        return innerActive ? nil : terminate(.success(()))
    }

    /// The consumer was cancelled or dropped its iterator: ends everything.
    mutating func cancel() -> (consumer: Consumer?, producer: Producer?) {
        let taken = (consumer, offer?.producer)
        consumer = nil
        offer = nil
        if termination == nil { termination = .success(()) }
        return taken
    }

    var isTerminated: Bool { termination != nil }

    private mutating func terminate(_ result: Result<Void, any Error>) -> (Consumer, Result<Element?, any Error>)? {
        termination = result
        guard let consumer else { return nil }
        self.consumer = nil
        return (consumer, takeTermination() ?? .success(nil))
    }

    private mutating func takeTermination() -> Result<Element?, any Error>? {
        switch termination {
        case nil: return nil
        case .success: return .success(nil)
        case .failure(let failure):
            termination = .success(())
            return .failure(failure)
        }
    }
}
