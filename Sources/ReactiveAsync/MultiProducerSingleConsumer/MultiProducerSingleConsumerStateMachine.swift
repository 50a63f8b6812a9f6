/// The rules of ``MultiProducerSingleConsumerAsyncChannel``, without threads: a buffer with a high
/// and a low watermark, one consumer, any number of sources and suspended producers. Each call
/// returns what to resume; `MultiProducerSingleConsumerStorage` does that after its lock.
///
/// `Consumer` and `Producer` are what a suspended `next()` and a suspended `send` leave behind
/// (continuations and callbacks in the storage, plain values in unit tests). The behaviour is the
/// package's proposal SAA-0016 and its `MultiProducerSingleConsumerAsyncChannel+Internal.swift`
/// state machine, as read:
/// - a send appends, then asks more only while the water level is below the high watermark;
/// - a consumed element lowers the level, and below the low watermark every suspended producer
///   resumes, and so does an empty buffer (difference: with `low: 0` the package never resumes
///   them, as no level is below 0);
/// - `finish` (or the last source dropped) lets the consumer drain the buffer, then ends it;
/// - the consumer's end (its task cancelled, the channel, its sequence or its iterator dropped)
///   fails every producer, drops the buffer and calls the sources' termination callbacks.
///
/// A producer's callback token is remembered from the send that issued it until the producer
/// enqueues (or the channel ends), and a cancellation in between is kept only for such a token: a
/// cancellation that comes after the producer was resumed is forgotten (difference: the package
/// adds every such token to a list that is never emptied while the channel runs).
struct MultiProducerSingleConsumerStateMachine<Element, Failure: Error, Consumer, Producer> {
    enum Phase {
        /// Elements flow.
        case channeling
        /// A source finished (with a failure or not): the consumer drains what is buffered.
        case sourceFinished(Failure?)
        /// Nothing flows any more.
        case finished
    }

    private struct Buffered {
        let element: Element
        let weight: Int
    }

    private(set) var phase = Phase.channeling
    private let low: Int
    private let high: Int
    private var buffer = FIFOQueue<Buffered>()
    private(set) var waterLevel = 0
    /// Whether the backpressure strategy asks for more (the package's `hasOutstandingDemand`): a
    /// producer enqueued after a consumer's `next()` brought the level down resumes at once.
    private var hasDemand = true
    private var consumer: Consumer?
    private var producers: [(token: UInt64, producer: Producer)] = []
    /// Tokens issued by a send whose producer has not enqueued yet, each with whether it was
    /// cancelled meanwhile.
    private var unenqueued: [UInt64: Bool] = [:]
    private var terminations: [(source: UInt64, callback: @Sendable () -> Void)] = []
    private var liveSources = 0
    private var lastSourceID: UInt64 = 0
    private var lastToken: UInt64 = 0
    private var sequenceMade = false
    private var iteratorMade = false

    /// - Parameters:
    ///   - low: Below this level, suspended producers resume.
    ///   - high: At this level or above, producers are asked to wait.
    init(low: Int, high: Int) {
        self.low = low
        self.high = max(low, high)
    }

    /// Number of buffered elements.
    var bufferedCount: Int { buffer.count }

    /// Tokens remembered for producers that have not enqueued yet (cancelled or not).
    var rememberedTokenCount: Int { unenqueued.count }

    /// After a consumed element: whether producers may produce again (below the low watermark, or
    /// nothing left buffered).
    private var demandAfterConsuming: Bool { waterLevel < low || buffer.isEmpty }

    // MARK: Sources

    /// A new source: returns its identity (for its termination callback).
    mutating func sourceMade() -> UInt64 {
        if case .channeling = phase { liveSources += 1 }
        lastSourceID &+= 1
        return lastSourceID
    }

    /// A source was dropped: the last one dropped finishes the channel as `finish()` does.
    mutating func sourceDropped() -> Termination {
        guard case .channeling = phase else { return Termination() }
        liveSources -= 1
        return liveSources == 0 ? finish(failure: nil) : Termination()
    }

    /// Sets or clears `source`'s termination callback; returns the callback to call now (the
    /// channel already ended) and the one it replaces (to release after the lock).
    mutating func setTermination(source: UInt64, callback: (@Sendable () -> Void)?) -> (callNow: (@Sendable () -> Void)?, replaced: (@Sendable () -> Void)?) {
        if case .finished = phase { return (callback, nil) }
        let index = terminations.firstIndex { $0.source == source }
        let replaced = index.map { terminations[$0].callback }
        if let index { terminations.remove(at: index) }
        if let callback { terminations.append((source, callback)) }
        return (nil, replaced)
    }

    // MARK: Sending

    enum SendAction {
        /// The channel no longer takes elements: the send throws (its elements come back, to be
        /// released after the lock).
        case alreadyFinished([Element])
        /// The elements were taken; `delivery` is the waiting consumer and its element;
        /// `callbackToken` is set when the producer must wait (enqueue with it).
        case sent(delivery: (consumer: Consumer, element: Element)?, callbackToken: UInt64?)
    }

    /// A send of `elements`, each with its weight (its contribution to the water level).
    mutating func send(_ elements: [(element: Element, weight: Int)]) -> SendAction {
        guard case .channeling = phase else { return .alreadyFinished(elements.map(\.element)) }
        for (element, weight) in elements {
            buffer.append(Buffered(element: element, weight: weight))
            waterLevel += weight
        }
        hasDemand = waterLevel < high
        var delivery: (consumer: Consumer, element: Element)?
        if let waiting = consumer, let first = buffer.popFirst() {
            consumer = nil
            waterLevel -= first.weight
            hasDemand = demandAfterConsuming
            delivery = (waiting, first.element)
        }
        return .sent(delivery: delivery, callbackToken: hasDemand ? nil : makeToken())
    }

    private mutating func makeToken() -> UInt64 {
        lastToken &+= 1
        unenqueued[lastToken] = false
        return lastToken
    }

    enum EnqueueAction {
        /// The producer waits.
        case none
        /// Resume the producer at once: demand came back meanwhile.
        case resume(Producer)
        /// Fail the producer: cancelled meanwhile (`cancelled`), or the channel ended.
        case fail(Producer, cancelled: Bool)
    }

    /// The producer that got `token` from a send waits for demand.
    mutating func enqueue(token: UInt64, producer: Producer) -> EnqueueAction {
        guard case .channeling = phase else { return .fail(producer, cancelled: false) }
        if unenqueued.removeValue(forKey: token) == true { return .fail(producer, cancelled: true) }
        if hasDemand { return .resume(producer) }
        producers.append((token, producer))
        return .none
    }

    /// The producer with `token` was cancelled: returns it to fail with a cancellation error, or
    /// nil if it is not waiting: then, if it has not enqueued yet, its later `enqueue` fails at
    /// once; if it was already resumed (or the token is unknown), nothing is kept.
    mutating func cancelProducer(token: UInt64) -> Producer? {
        guard case .channeling = phase else { return nil }
        if let index = producers.firstIndex(where: { $0.token == token }) {
            return producers.remove(at: index).producer
        }
        if unenqueued[token] != nil { unenqueued[token] = true }
        return nil
    }

    // MARK: Receiving

    enum NextAction {
        /// Return this element; resume these producers (demand came back).
        case element(Element, resume: [Producer])
        /// Return this result (nil, or the failure once) and end the channel.
        case terminal(Result<Element?, Failure>, Termination)
        /// Nothing yet: suspend (``suspend(consumer:)``).
        case suspend
    }

    /// A `next()` before it suspends.
    mutating func next() -> NextAction {
        switch phase {
        case .channeling:
            guard let first = buffer.popFirst() else { return .suspend }
            waterLevel -= first.weight
            hasDemand = demandAfterConsuming
            guard hasDemand, !producers.isEmpty else { return .element(first.element, resume: []) }
            let resumed = producers.map(\.producer)
            producers.removeAll()
            return .element(first.element, resume: resumed)
        case .sourceFinished(let failure):
            if let first = buffer.popFirst() {
                waterLevel -= first.weight
                return .element(first.element, resume: [])
            }
            return .terminal(failure.map { .failure($0) } ?? .success(nil), end())
        case .finished:
            return .terminal(.success(nil), Termination())
        }
    }

    /// A `next()` that suspends with `consumer`: either it waits, or what it must return came
    /// meanwhile (the same actions as ``next()``, never `.suspend`).
    mutating func suspend(consumer: Consumer) -> NextAction {
        let action = next()
        if case .suspend = action { self.consumer = consumer }
        return action
    }

    // MARK: Terminating

    /// What an end resumes and releases, after the lock.
    struct Termination {
        /// The suspended consumer, to resume with `consumerResult`.
        var consumer: Consumer?
        var consumerResult: Result<Element?, Failure> = .success(nil)
        /// Suspended producers, to fail with the already-finished error.
        var producers: [Producer] = []
        /// The sources' termination callbacks, to call.
        var callbacks: [@Sendable () -> Void] = []
        /// Buffered elements nobody will take, to release.
        var dropped: [Element] = []
    }

    /// `finish(throwing:)`: the consumer drains the buffer, then gets `failure` or nil. Producers
    /// waiting now fail; only the first call has an effect.
    mutating func finish(failure: Failure?) -> Termination {
        guard case .channeling = phase else { return Termination() }
        if let waiting = consumer {
            // A waiting consumer means an empty buffer: it ends now.
            consumer = nil
            var termination = end()
            termination.consumer = waiting
            termination.consumerResult = failure.map { .failure($0) } ?? .success(nil)
            return termination
        }
        let waiting = producers.map(\.producer)
        producers.removeAll()
        unenqueued.removeAll()
        phase = .sourceFinished(failure)
        return Termination(producers: waiting)
    }

    /// The consumer is gone (its task cancelled, or the channel, its sequence or its iterator
    /// dropped): fails every producer, drops the buffer, calls the termination callbacks.
    mutating func consumerEnded() -> Termination {
        if case .finished = phase { return Termination() }
        var termination = end()
        termination.consumer = consumer
        consumer = nil
        return termination
    }

    /// The channel was dropped; it ends unless it became a sequence.
    mutating func channelDropped() -> Termination {
        sequenceMade ? Termination() : consumerEnded()
    }

    /// `elements()` made the channel a sequence.
    mutating func markSequenceMade() { sequenceMade = true }

    /// The sequence was dropped; it ends the channel unless an iterator was made.
    mutating func sequenceDropped() -> Termination {
        iteratorMade ? Termination() : consumerEnded()
    }

    /// An iterator was made: true for the first, the channel's one consumer; any later iterator
    /// gets nothing (the package stops the process instead).
    mutating func markIteratorMade() -> Bool {
        defer { iteratorMade = true }
        return !iteratorMade
    }

    private mutating func end() -> Termination {
        phase = .finished
        var termination = Termination()
        termination.producers = producers.map(\.producer)
        termination.callbacks = terminations.map(\.callback)
        termination.dropped = buffer.removeAll().map(\.element)
        producers.removeAll()
        terminations.removeAll()
        unenqueued.removeAll()
        waterLevel = 0
        return termination
    }
}
