/// A publisher that eventually produces one value and finishes, or fails.
///
/// The closure runs once, at once, when the future is created (not on subscribe: wrap it in
/// `Deferred` for that). The first call of the promise wins; later calls are ignored. Each
/// subscriber receives the stored result, a value only once it has demand (a failure at once), so
/// subscribers that arrive after the promise was fulfilled get the same result (C31).
///
/// ```swift
/// let answer = Future<Int, Never> { promise in
///     DispatchQueue.global().async { promise(.success(42)) }
/// }
/// let c = answer.sink { print($0) }   // prints 42
/// ```
public final class Future<Output, Failure: Error>: Publisher {
    /// Fulfils the future. It may be called from any thread; only its first call counts.
    ///
    /// (Combine's `Promise` is not `@Sendable`; this one is, so it can be handed to a task.)
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    @usableFromInline let storage: FutureStorage<Output, Failure>

    /// Creates a future and runs `attemptToFulfill` now, on the calling thread.
    /// - Parameter attemptToFulfill: Receives the promise to call, now or later, with the result.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        let storage = FutureStorage<Output, Failure>()
        self.storage = storage
        attemptToFulfill { result in storage.fulfill(result) }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        storage.attach(subscriber)
    }
}

// @unchecked: all state lives in `storage` and is read and written only under its lock.
extension Future: @unchecked Sendable where Output: Sendable {}

/// The result of a `Future` and the subscriptions waiting for it, all under `lock`.
@usableFromInline
final class FutureStorage<Output, Failure: Error>: @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`; the promise that captures
    // this storage may be called from any thread.
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var result: Result<Output, Failure>?
    @usableFromInline @exclusivity(unchecked) var waiting: [FutureConduit<Output, Failure>] = []

    @usableFromInline init() {}

    @usableFromInline
    func fulfill(_ result: Result<Output, Failure>) {
        let ready = lock.guarded { () -> [FutureConduit<Output, Failure>] in
            guard self.result == nil else { return [] }
            self.result = result
            let ready = waiting
            waiting = []
            return ready
        }
        for conduit in ready { conduit.deliverIfReady() }
    }

    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = FutureConduit<Output, Failure>(storage: self) { signal in
            switch signal {
            case .value(let value):
                _ = subscriber.receive(value)
            case .completion(let completion):
                subscriber.receive(completion: completion)
            }
            return .none
        }
        lock.guarded {
            if result == nil { waiting.append(conduit) }
        }
        subscriber.receive(subscription: conduit)
        conduit.subscribed()
    }
}

/// One signal for a `Future` subscriber.
@usableFromInline
enum FutureSignal<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}

/// One subscriber's subscription to a `Future`; its state is guarded by the storage's lock.
@usableFromInline
final class FutureConduit<Output, Failure: Error>: Subscription, CustomStringConvertible {
    @usableFromInline typealias Deliver = (FutureSignal<Output, Failure>) -> Subscribers.Demand

    @usableFromInline let storage: FutureStorage<Output, Failure>
    @usableFromInline @exclusivity(unchecked) var deliver: Deliver?
    @usableFromInline @exclusivity(unchecked) var state = State.subscribing
    @usableFromInline @exclusivity(unchecked) var demanded = false

    /// `subscribing`: the subscriber is being handed its subscription, so nothing may be sent yet.
    /// `delivering`: a thread is sending the value; a cancel now suppresses the completion.
    @usableFromInline enum State { case subscribing, waiting, delivering, done }

    @inlinable
    init(storage: FutureStorage<Output, Failure>, deliver: @escaping Deliver) {
        self.storage = storage
        self.deliver = deliver
    }

    @usableFromInline var description: String { "Future" }

    @usableFromInline
    func subscribed() {
        storage.lock.guarded {
            if state == .subscribing { state = .waiting }
        }
        deliverIfReady()
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let ready = storage.lock.guarded { () -> Bool in
            guard state != .done else { return false }
            demanded = true
            return state == .waiting
        }
        if ready { deliverIfReady() }
    }

    /// Sends the result if it is there and may be sent; exactly one caller wins the right to.
    @usableFromInline
    func deliverIfReady() {
        let taken = storage.lock.guarded { () -> (Deliver, Result<Output, Failure>)? in
            guard state == .waiting, let result = storage.result, let deliver else { return nil }
            switch result {
            case .success:
                guard demanded else { return nil }
                state = .delivering
                return (deliver, result)
            case .failure:
                state = .done
                self.deliver = nil
                return (deliver, result)
            }
        }
        guard let (target, result) = taken else { return }
        switch result {
        case .failure(let error):
            _ = target(.completion(.failure(error)))
        case .success(let value):
            _ = target(.value(value))
            // A cancel from inside `receive(_:)` suppresses the completion (C05).
            let finish = storage.lock.guarded { () -> Bool in
                let finish = state == .delivering
                state = .done
                deliver = nil
                return finish
            }
            if finish { _ = target(.completion(.finished)) }
        }
    }

    @usableFromInline
    func cancel() {
        let released = storage.lock.guarded { () -> Deliver? in
            switch state {
            case .done:
                return nil
            case .delivering:
                state = .done  // the deliverer sees it and sends no completion
                return nil
            case .subscribing, .waiting:
                state = .done
                if let index = storage.waiting.firstIndex(where: { $0 === self }) {
                    storage.waiting.remove(at: index)
                }
                let released = deliver
                deliver = nil
                return released
            }
        }
        withExtendedLifetime(released) {}
    }
}
