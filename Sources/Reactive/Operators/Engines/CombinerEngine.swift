/// The engine behind `zip` and `combineLatest`: a fixed set of inputs feeding one downstream.
///
/// Values are kept type-erased (`Any`) so one engine serves every arity; `combine` restores the
/// tuple (its casts cannot fail: each slot is only ever written by the input of that type).
///
/// Demand (C08): every input is asked for as many values as the downstream asked for in total,
/// so neither the buffers nor the output can run ahead of demand. `zip` pairs buffered values in
/// order; `combineLatest` keeps each input's latest value and a `fresh` flag, so a burst without
/// demand yields one combination of the latest values once demand arrives.
///
/// Serialisation (C25) works as in `MergeEngine`: one deliverer at a time, no lock held while
/// calling out. Completion (C36): `zip` finishes as soon as an input has finished and its buffer
/// is empty; `combineLatest` finishes when every input has finished. The first failure cancels the
/// other inputs and is delivered at once.
@usableFromInline
final class CombinerEngine<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline enum Mode { case zip, latest }

    @usableFromInline
    enum Status {
        case active
        case failing(Failure)
        case terminated
    }

    @usableFromInline
    enum Step {
        case stop
        case value(Downstream, [Any])
        case finish(Downstream?, ContiguousArray<any Subscription>)
        case fail(Downstream?, Failure)
    }

    @usableFromInline let lock = Lock()
    @usableFromInline let mode: Mode
    @usableFromInline let arity: Int
    @usableFromInline let name: String
    @usableFromInline let combine: ([Any]) -> Downstream.Input
    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var status = Status.active
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    /// Everything asked of each input so far; an input that subscribes late is asked for it all.
    @usableFromInline @exclusivity(unchecked) var forwarded = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var delivering = false
    @usableFromInline @exclusivity(unchecked) var subscriptions: [(any Subscription)?]
    @usableFromInline @exclusivity(unchecked) var finished: [Bool]
    @usableFromInline @exclusivity(unchecked) var buffers: [[Any]]
    @usableFromInline @exclusivity(unchecked) var heads: [Int]
    @usableFromInline @exclusivity(unchecked) var latest: [Any?]
    @usableFromInline @exclusivity(unchecked) var fresh = false

    @inlinable
    init(downstream: Downstream, arity: Int, mode: Mode, name: String, combine: @escaping ([Any]) -> Downstream.Input) {
        self.downstream = downstream
        self.arity = arity
        self.mode = mode
        self.name = name
        self.combine = combine
        subscriptions = Array(repeating: nil, count: arity)
        finished = Array(repeating: false, count: arity)
        buffers = Array(repeating: [], count: arity)
        heads = Array(repeating: 0, count: arity)
        latest = Array(repeating: nil, count: arity)
    }

    @usableFromInline var description: String { name }

    @inlinable var isActive: Bool {
        if case .active = status { return true }
        return false
    }

    /// Whether the storage still wants its inputs subscribed.
    @inlinable var isLive: Bool { lock.guarded { isActive } }

    /// Subscribes to input `index`.
    @usableFromInline
    struct Side<Input>: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Failure = Downstream.Failure
        @usableFromInline let storage: CombinerEngine
        @usableFromInline let index: Int
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable init(storage: CombinerEngine, index: Int) {
            self.storage = storage
            self.index = index
        }

        @usableFromInline var description: String { storage.name }

        @inlinable func receive(subscription: any Subscription) { storage.sideSubscribed(index, subscription) }
        @inlinable func receive(_ input: Input) -> Subscribers.Demand {
            storage.sideReceive(index, input)
            return .none
        }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) { storage.sideCompleted(index, completion) }
    }

    /// Subscribes `publisher` as input `index`, unless the storage already terminated.
    @inlinable
    func attach<P: Publisher>(_ publisher: P, at index: Int) where P.Failure == Failure {
        guard isLive else { return }
        publisher.subscribe(Side<P.Output>(storage: self, index: index))
    }

    // MARK: With the lock held

    @inlinable
    var hasReady: Bool {
        switch mode {
        case .zip:
            for i in 0..<arity where heads[i] == buffers[i].count { return false }
            return true
        case .latest:
            return fresh
        }
    }

    @inlinable
    func takeReady() -> [Any]? {
        guard hasReady else { return nil }
        switch mode {
        case .zip:
            var values: [Any] = []
            values.reserveCapacity(arity)
            for i in 0..<arity {
                values.append(buffers[i][heads[i]])
                heads[i] += 1
                if heads[i] == buffers[i].count {
                    buffers[i].removeAll(keepingCapacity: true)
                    heads[i] = 0
                }
            }
            return values
        case .latest:
            fresh = false
            return latest.map { $0! }
        }
    }

    @inlinable
    var shouldFinish: Bool {
        switch mode {
        case .zip:
            for i in 0..<arity where finished[i] && heads[i] == buffers[i].count { return true }
            return false
        case .latest:
            return !fresh && !finished.contains(false)
        }
    }

    /// Drops every reference; returns the subscriptions still to cancel.
    @inlinable
    func release() -> ContiguousArray<any Subscription> {
        var cancels: ContiguousArray<any Subscription> = []
        for case let subscription? in subscriptions { cancels.append(subscription) }
        subscriptions = Array(repeating: nil, count: arity)
        buffers = Array(repeating: [], count: arity)
        heads = Array(repeating: 0, count: arity)
        latest = Array(repeating: nil, count: arity)
        fresh = false
        downstream = nil
        return cancels
    }

    // MARK: Inputs

    @inlinable
    func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
        let ask = lock.guarded { () -> Subscribers.Demand? in
            guard isActive, subscriptions[index] == nil, !finished[index] else { return nil }
            subscriptions[index] = subscription
            return forwarded
        }
        guard let ask else {
            subscription.cancel()
            return
        }
        if ask > 0 { subscription.request(ask) }
    }

    @inlinable
    func sideReceive(_ index: Int, _ value: Any) {
        let start = lock.guarded { () -> Bool in
            guard isActive, !finished[index] else { return false }
            switch mode {
            case .zip:
                buffers[index].append(value)
            case .latest:
                latest[index] = value
                if !fresh { fresh = !latest.contains { $0 == nil } }
            }
            guard !delivering, demand > 0, hasReady else { return false }
            delivering = true
            return true
        }
        if start { drain() }
    }

    @inlinable
    func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
        var cancels: ContiguousArray<any Subscription> = []
        let target = lock.guarded { () -> Downstream? in
            guard isActive, !finished[index] else { return nil }
            finished[index] = true
            subscriptions[index] = nil
            switch completion {
            case .failure(let error):
                let target = downstream
                cancels = release()
                if delivering {
                    downstream = target
                    status = .failing(error)
                    return nil
                }
                status = .terminated
                return target
            case .finished:
                guard !delivering, shouldFinish else { return nil }
                status = .terminated
                let target = downstream
                cancels = release()
                return target
            }
        }
        for subscription in cancels { subscription.cancel() }
        target?.receive(completion: completion)
    }

    // MARK: Delivery

    @inlinable
    func drain() {
        var more = Subscribers.Demand.none
        while true {
            var askMore: [(any Subscription)?] = []
            let asked = more
            let step = lock.guarded { () -> Step in
                switch status {
                case .terminated:
                    delivering = false
                    return .stop
                case .failing(let error):
                    status = .terminated
                    delivering = false
                    let target = downstream
                    _ = release()
                    return .fail(target, error)
                case .active:
                    break
                }
                if asked > 0 {
                    demand += asked
                    forwarded += asked
                    askMore = subscriptions
                }
                if demand > 0, let downstream, let values = takeReady() {
                    demand -= 1
                    return .value(downstream, values)
                }
                delivering = false
                guard shouldFinish else { return .stop }
                status = .terminated
                let target = downstream
                return .finish(target, release())
            }
            for case let subscription? in askMore { subscription.request(asked) }
            more = .none
            switch step {
            case .stop:
                return
            case .value(let target, let values):
                more = target.receive(combine(values))
            case .finish(let target, let cancels):
                for subscription in cancels { subscription.cancel() }
                target?.receive(completion: .finished)
                return
            case .fail(let target, let error):
                target?.receive(completion: .failure(error))
                return
            }
        }
    }

    // MARK: Subscription

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        var subscriptions: [(any Subscription)?] = []
        let start = lock.guarded { () -> Bool in
            guard isActive else { return false }
            demand += more
            forwarded += more
            subscriptions = self.subscriptions
            guard !delivering, hasReady else { return false }
            delivering = true
            return true
        }
        for case let subscription? in subscriptions { subscription.request(more) }
        if start { drain() }
    }

    @inlinable
    func cancel() {
        let cancels = lock.guarded { () -> ContiguousArray<any Subscription> in
            if case .terminated = status { return [] }
            status = .terminated
            return release()
        }
        for subscription in cancels { subscription.cancel() }
    }
}
