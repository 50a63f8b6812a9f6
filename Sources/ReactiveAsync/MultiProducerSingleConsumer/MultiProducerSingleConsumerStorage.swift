/// A value received `sending` and handed on exactly once, so it can cross the storage's lock.
struct Disconnected<Value>: @unchecked Sendable {  // @unchecked: the value arrived `sending` and is taken once, by one task.
    private let value: Value

    init(_ value: consuming Value) { self.value = value }

    consuming func take() -> sending Value {
        // The region checker cannot see that a value kept in the lock's state since its `sending`
        // arrival is still disconnected; the state machine hands each one out once.
        nonisolated(unsafe) let value = value
        return value
    }
}

/// The shared state of one ``MultiProducerSingleConsumerAsyncChannel``: its state machine under a
/// `StateLock`. Continuations are resumed, callbacks called and dropped elements released only
/// after the lock is released.
final class MultiProducerSingleConsumerStorage<Element, Failure: Error>: Sendable {
    typealias Consumer = UnsafeContinuation<Disconnected<Result<Element?, Failure>>, Never>

    /// A producer waiting for demand: an async `send` or an `onProduceMore` callback.
    enum Producer {
        case continuation(UnsafeContinuation<Void, any Error>)
        case callback((Result<Void, any Error>) -> Void)

        func resume(_ result: Result<Void, any Error>) {
            switch self {
            case .continuation(let continuation): continuation.resume(with: result)
            case .callback(let callback): callback(result)
            }
        }
    }

    typealias Machine = MultiProducerSingleConsumerStateMachine<Element, Failure, Consumer, Producer>

    private let machine: StateLock<Machine>
    private let weigh: (@Sendable (Element) -> Int)?

    init(low: Int, high: Int, weigh: (@Sendable (Element) -> Int)?) {
        machine = StateLock(Machine(low: low, high: high))
        self.weigh = weigh
    }

    // MARK: Lifecycle

    func sourceMade() -> UInt64 { machine.withLock { $0.sourceMade() } }
    func sourceDropped() { perform(machine.withLock { Disconnected($0.sourceDropped()) }.take()) }
    func channelDropped() { perform(machine.withLock { Disconnected($0.channelDropped()) }.take()) }
    func sequenceMade() { machine.withLock { $0.markSequenceMade() } }
    func sequenceDropped() { perform(machine.withLock { Disconnected($0.sequenceDropped()) }.take()) }
    func iteratorMade() -> Bool { machine.withLock { $0.markIteratorMade() } }
    func consumerEnded() { perform(machine.withLock { Disconnected($0.consumerEnded()) }.take()) }

    func setTermination(source: UInt64, callback: (@Sendable () -> Void)?) {
        let (callNow, replaced) = machine.withLock { $0.setTermination(source: source, callback: callback) }
        _ = replaced
        callNow?()
    }

    // MARK: Sending

    /// Sends `elements`; returns the token to enqueue with when the producer must wait.
    func send(_ elements: consuming sending [Element]) throws -> UInt64? {
        let weighed = Disconnected(elements.map { (element: $0, weight: weigh?($0) ?? 1) })
        let action = machine.withLock { Disconnected($0.send(weighed.take())) }.take()
        switch action {
        case .alreadyFinished(let elements):
            _ = elements
            throw MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError()
        case .sent(let delivery, let callbackToken):
            if let delivery {
                delivery.consumer.resume(returning: Disconnected(.success(delivery.element)))
            }
            return callbackToken
        }
    }

    func enqueue(token: UInt64, producer: consuming sending Producer) {
        let producer = Disconnected(producer)
        let action = machine.withLock { Disconnected($0.enqueue(token: token, producer: producer.take())) }.take()
        switch action {
        case .none: break
        case .resume(let producer): producer.resume(.success(()))
        case .fail(let producer, let cancelled):
            producer.resume(.failure(cancelled ? CancellationError() : MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError()))
        }
    }

    func cancelProducer(token: UInt64) {
        machine.withLock { Disconnected($0.cancelProducer(token: token)) }.take()?.resume(.failure(CancellationError()))
    }

    /// Sends and, when the channel asks the producer to wait, suspends until it asks for more.
    func sendAndWait(_ elements: consuming sending [Element]) async throws {
        guard let token = try send(elements) else { return }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                enqueue(token: token, producer: .continuation(continuation))
            }
        } onCancel: {
            cancelProducer(token: token)
        }
    }

    func finish(failure: Failure?) {
        perform(machine.withLock { Disconnected($0.finish(failure: failure)) }.take())
    }

    // MARK: Receiving

    func next() async throws(Failure) -> Element? {
        let action = machine.withLock { Disconnected($0.next()) }.take()
        switch action {
        case .element(let element, let producers):
            for producer in producers { producer.resume(.success(())) }
            return element
        case .terminal(let result, let termination):
            perform(termination)
            return try result.get()
        case .suspend:
            break
        }
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (consumer: Consumer) in
                let action = machine.withLock { Disconnected($0.suspend(consumer: consumer)) }.take()
                switch action {
                case .suspend:
                    break
                case .element(let element, let producers):
                    consumer.resume(returning: Disconnected(.success(element)))
                    for producer in producers { producer.resume(.success(())) }
                case .terminal(let result, let termination):
                    consumer.resume(returning: Disconnected(result))
                    perform(termination)
                }
            }
        } onCancel: {
            consumerEnded()
        }
        return try result.take().get()
    }

    /// Resumes, calls and releases what an end left, outside the lock.
    private func perform(_ termination: Machine.Termination) {
        termination.consumer?.resume(returning: Disconnected(termination.consumerResult))
        for producer in termination.producers {
            producer.resume(.failure(MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError()))
        }
        for callback in termination.callbacks { callback() }
    }
}
