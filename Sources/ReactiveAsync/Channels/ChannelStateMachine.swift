/// The rendezvous of `AsyncChannel` and `AsyncThrowingChannel`, without threads: it decides who
/// resumes whom and returns that as an action; `ChannelStorage` performs the action after its lock.
///
/// `Producer` and `Consumer` are what a suspended `send` and `next` leave behind (continuations in
/// the storage, plain values in unit tests). Producers and consumers are served first come, first
/// served; a producer's element is delivered only to a consumer that takes it, and the producer
/// resumes at that moment (the package's Channel guide: "send … returns when the next iteration of
/// the channel is invoked").
struct ChannelStateMachine<Element, Failure: Error, Producer, Consumer> {
    private struct SuspendedProducer {
        let id: UInt64
        let producer: Producer
        let element: Element
    }

    private struct SuspendedConsumer {
        let id: UInt64
        let consumer: Consumer
    }

    private enum Termination {
        case finished
        case failed(Failure)
    }

    private var producers = FIFOQueue<SuspendedProducer>()
    private var consumers = FIFOQueue<SuspendedConsumer>()
    private var termination: Termination?
    private var nextID: UInt64 = 0

    init() {}

    /// A fresh identity for a `send` or `next` that may suspend, so its cancellation finds it.
    mutating func makeID() -> UInt64 {
        nextID &+= 1
        return nextID
    }

    // MARK: Sending

    enum SendImmediatelyAction {
        /// A consumer was waiting: resume it with the element; the send is complete.
        case resumeConsumer(Consumer)
        /// The channel is terminated: the element is dropped and the send returns.
        case dropped
        /// Nobody is waiting: the producer must suspend (`send(_:producer:id:isCancelled:)`) with
        /// this identity, so its cancellation finds it.
        case suspend(id: UInt64)
    }

    /// A `send` before it suspends: hands the element to a waiting consumer if there is one.
    mutating func sendImmediately() -> SendImmediatelyAction {
        if termination != nil { return .dropped }
        if let waiting = consumers.popFirst() { return .resumeConsumer(waiting.consumer) }
        return .suspend(id: makeID())
    }

    enum SendAction {
        /// Keep the producer suspended until a consumer takes the element.
        case none
        /// Resume the producer at once (the channel is terminated or the task is cancelled).
        case resumeProducer(Producer)
        /// A consumer arrived meanwhile: resume both, the consumer with the element.
        case resumeProducerAndConsumer(Producer, Consumer)
    }

    /// A `send` that suspends with `producer`; `isCancelled` is its task's state, read under the
    /// same lock as the cancellation handler's, so one of the two always sees the other.
    mutating func send(_ element: Element, producer: Producer, id: UInt64, isCancelled: Bool) -> SendAction {
        if termination != nil || isCancelled { return .resumeProducer(producer) }
        if let waiting = consumers.popFirst() { return .resumeProducerAndConsumer(producer, waiting.consumer) }
        producers.append(SuspendedProducer(id: id, producer: producer, element: element))
        return .none
    }

    /// The task of the suspended `send` with `id` was cancelled: returns the producer to resume
    /// (its element is dropped), or nil if it was already resumed.
    mutating func sendCancelled(id: UInt64) -> Producer? {
        producers.remove(firstWhere: { $0.id == id })?.producer
    }

    // MARK: Receiving

    enum NextImmediatelyAction {
        /// A producer was waiting: resume it and return its element.
        case resumeProducer(Producer, Element)
        /// The channel is terminated: return this (nil, or the failure once).
        case terminal(Result<Element?, Failure>)
        /// Nobody is waiting: the consumer must suspend (`next(consumer:id:isCancelled:)`) with
        /// this identity.
        case suspend(id: UInt64)
    }

    /// A `next` before it suspends.
    mutating func nextImmediately() -> NextImmediatelyAction {
        if let waiting = producers.popFirst() { return .resumeProducer(waiting.producer, waiting.element) }
        if let result = takeTerminal() { return .terminal(result) }
        return .suspend(id: makeID())
    }

    enum NextAction {
        /// Keep the consumer suspended until a producer or a termination arrives.
        case none
        /// Resume the consumer at once with this.
        case resumeConsumer(Consumer, Result<Element?, Failure>)
        /// A producer arrived meanwhile: resume both, the consumer with the producer's element.
        case resumeProducerAndConsumer(Producer, Consumer, Element)
    }

    /// A `next` that suspends with `consumer`.
    mutating func next(consumer: Consumer, id: UInt64, isCancelled: Bool) -> NextAction {
        if isCancelled { return .resumeConsumer(consumer, .success(nil)) }
        if let waiting = producers.popFirst() { return .resumeProducerAndConsumer(waiting.producer, consumer, waiting.element) }
        if let result = takeTerminal() { return .resumeConsumer(consumer, result) }
        consumers.append(SuspendedConsumer(id: id, consumer: consumer))
        return .none
    }

    /// The task of the suspended `next` with `id` was cancelled: returns the consumer to resume
    /// with nil, or nil if it was already resumed.
    mutating func nextCancelled(id: UInt64) -> Consumer? {
        consumers.remove(firstWhere: { $0.id == id })?.consumer
    }

    // MARK: Terminating

    /// What `finish()` or `fail(_:)` resumes: every suspended producer (their elements are
    /// dropped) and every suspended consumer, with `consumerResult`.
    struct FinishAction {
        var producers: [Producer] = []
        var consumers: [Consumer] = []
        var consumerResult: Result<Element?, Failure> = .success(nil)
    }

    /// Terminates the channel; only the first call has an effect. A failure goes to the
    /// consumers waiting now, or, if none is, to the next call to `next()`, once; after it every
    /// `next()` returns nil (the package's `ChannelStateMachine.finish(error:)`, as read).
    mutating func finish(failure: Failure?) -> FinishAction {
        guard termination == nil else { return FinishAction() }
        var action = FinishAction()
        action.producers = producers.removeAll().map(\.producer)
        action.consumers = consumers.removeAll().map(\.consumer)
        if let failure {
            if action.consumers.isEmpty {
                termination = .failed(failure)
            } else {
                termination = .finished
                action.consumerResult = .failure(failure)
            }
        } else {
            termination = .finished
        }
        return action
    }

    private mutating func takeTerminal() -> Result<Element?, Failure>? {
        switch termination {
        case nil: return nil
        case .finished: return .success(nil)
        case .failed(let failure):
            termination = .finished
            return .failure(failure)
        }
    }
}
