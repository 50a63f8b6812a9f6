/// The shared state of one channel: a `ChannelStateMachine` under a `StateLock`. Continuations are
/// resumed only after the lock is released.
///
/// Not generic: the elements pass through type-erased (the channels cast them back), so the
/// machine, the lock and the continuations run specialised. Generic over the element, they ran
/// unspecialised from the module that sends and asked the runtime for generic metadata on every
/// element.
final class ChannelStorage: Sendable {
    typealias Element = any Sendable
    typealias Producer = UnsafeContinuation<Void, Never>
    typealias Consumer = UnsafeContinuation<Result<Element?, any Error>, Never>
    typealias Machine = ChannelStateMachine<Element, any Error, Producer, Consumer>

    private let machine = StateLock(Machine())

    init() {}

    func send(_ element: Element) async {
        let id: UInt64
        switch machine.withLock({ $0.sendImmediately() }) {
        case .resumeConsumer(let consumer):
            consumer.resume(returning: .success(element))
            return
        case .dropped:
            return
        case .suspend(let suspendID):
            id = suspendID
        }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (producer: Producer) in
                let action = machine.withLock { $0.send(element, producer: producer, id: id, isCancelled: Task.isCancelled) }
                switch action {
                case .none:
                    break
                case .resumeProducer(let producer):
                    producer.resume()
                case .resumeProducerAndConsumer(let producer, let consumer):
                    consumer.resume(returning: .success(element))
                    producer.resume()
                }
            }
        } onCancel: {
            machine.withLock { $0.sendCancelled(id: id) }?.resume()
        }
    }

    /// The next element, `nil` at the end, or the failure the channel was finished with.
    func next() async -> Result<Element?, any Error> {
        let id: UInt64
        switch machine.withLock({ $0.nextImmediately() }) {
        case .resumeProducer(let producer, let element):
            producer.resume()
            return .success(element)
        case .terminal(let result):
            return result
        case .suspend(let suspendID):
            id = suspendID
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (consumer: Consumer) in
                let action = machine.withLock { $0.next(consumer: consumer, id: id, isCancelled: Task.isCancelled) }
                switch action {
                case .none:
                    break
                case .resumeConsumer(let consumer, let result):
                    consumer.resume(returning: result)
                case .resumeProducerAndConsumer(let producer, let consumer, let element):
                    producer.resume()
                    consumer.resume(returning: .success(element))
                }
            }
        } onCancel: {
            machine.withLock { $0.nextCancelled(id: id) }?.resume(returning: .success(nil))
        }
    }

    func finish(failure: (any Error)?) {
        let action = machine.withLock { $0.finish(failure: failure) }
        for producer in action.producers { producer.resume() }
        for consumer in action.consumers { consumer.resume(returning: action.consumerResult) }
    }
}
