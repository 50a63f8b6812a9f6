/// The wrapping subscription every stateful single-upstream operator shares.
///
/// It sits between upstream and downstream: upstream sees it as the subscriber, downstream as
/// the subscription. It tracks downstream demand and its own status under `lock`, so it can
/// cancel upstream when the logic is done early or fails, ignore late signals, and hold a final
/// value until downstream asks for it (C03, C05, C33). `Logic` decides what each signal means.
///
/// The logic value is moved out of the lock while it runs (it may call user closures, C23) and
/// moved back afterwards; a cancel in between drops it, so cancelling frees what it captured (C16).
///
/// C15: once `cancel()` returns, no delivery starts on that thread, and a value whose logic ran
/// while the cancel happened is dropped; a delivery that had already passed its status check on
/// another thread may still complete, but no completion ever follows a cancel (C05).
@usableFromInline
final class StepEngine<Logic: StepLogic, Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
    @usableFromInline typealias Input = Logic.Input
    @usableFromInline typealias Failure = Logic.UpstreamFailure

    /// `delivering`: the last value is on its way; a cancel during it suppresses the completion (C05).
    @usableFromInline enum Status { case awaitingSubscription, subscribed, holding, delivering, terminated }
    @usableFromInline enum RequestAction { case none, forward(any Subscription, Subscribers.Demand), release(Downstream, Logic.Output?) }

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var logic: Logic?
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) var status = Status.awaitingSubscription
    /// Downstream demand not yet used up; only a held final value needs it, but it is cheap.
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    /// The final value waiting for demand while `status == .holding` (nil: only `.finished` waits).
    @usableFromInline @exclusivity(unchecked) var held: Logic.Output?
    @usableFromInline let demandFactor: Int?

    @inlinable
    init(logic: Logic, downstream: Downstream) {
        self.logic = logic
        self.downstream = downstream
        self.demandFactor = logic.demandFactor
    }

    @usableFromInline var description: String { Logic.operatorName }

    // MARK: Upstream side

    @inlinable
    func receive(subscription: any Subscription) {
        let target = lock.guarded { () -> (Downstream, Bool)? in
            guard status == .awaitingSubscription, let downstream, let logic else { return nil }
            status = .subscribed
            upstream = subscription
            return (downstream, logic.isFinishedAtStart)
        }
        guard let (downstream, finishedAtStart) = target else {
            subscription.cancel()  // C06: keep the first subscription
            return
        }
        downstream.receive(subscription: self)
        if finishedAtStart {
            finish(with: nil)
        } else if demandFactor == nil, lock.guarded({ status == .subscribed }) {
            subscription.request(.unlimited)
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let pair = lock.guarded { () -> (Logic, Downstream)? in
            guard status == .subscribed, let downstream, let logic = self.logic.take() else { return nil }
            return (logic, downstream)
        }
        guard let (taken, downstream) = consume pair else { return .none }
        // `consume`: the logic's storage (collect's array) stays uniquely referenced, so the
        // logic mutates it in place instead of copying it per value (a debug build keeps `taken`
        // alive to the end of the scope otherwise: collect was quadratic).
        var state = consume taken
        switch state.receive(input) {
        case .emit(let output):
            let live = lock.guarded { () -> Bool in
                guard status == .subscribed else { return false }
                self.logic = state
                demand -= 1
                return true
            }
            guard live else { return .none }
            let more = downstream.receive(output)
            return more > 0 ? added(more) : .none
        case .skip(let extra):
            lock.guarded {
                if status == .subscribed { self.logic = state }
            }
            return extra
        case .finish(let output):
            finish(with: output)
            return .none
        case .fail(let error):
            let target = lock.guarded { () -> (Downstream, (any Subscription)?)? in
                guard status == .subscribed, let downstream = self.downstream else { return nil }
                return (downstream, terminate())
            }
            guard let (downstream, upstream) = target else { return .none }
            upstream?.cancel()
            downstream.receive(completion: .failure(error))
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let taken = lock.guarded { () -> Logic? in
            guard status == .subscribed, let logic = self.logic.take() else { return nil }
            upstream = nil
            return logic
        }
        guard var state = taken else { return }
        let (output, ending) = state.complete(completion)
        deliver(output, ending, cancelling: false)
    }

    // MARK: Downstream side

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }  // C07: request(.none) is a no-op
        let action = lock.guarded { () -> RequestAction in
            switch status {
            case .subscribed:
                demand += more
                guard let factor = demandFactor, let upstream else { return .none }
                return .forward(upstream, more * factor)
            case .holding:
                guard let downstream else { return .none }
                let output = held
                _ = terminate()
                if output != nil { status = .delivering }
                return .release(downstream, output)
            case .awaitingSubscription, .delivering, .terminated:
                return .none
            }
        }
        switch action {
        case .none:
            break
        case .forward(let upstream, let demand):
            upstream.request(demand)
        case .release(let downstream, let output?):
            send(output, then: .finished, to: downstream)
        case .release(let downstream, nil):
            downstream.receive(completion: .finished)
        }
    }

    @inlinable
    func cancel() {
        // The logic (user closures), the downstream and a held value leave the lock before they
        // are released: a captured object's deinit may call back into this subscription (C23).
        let taken = lock.guarded { () -> ((any Subscription)?, (Logic?, Downstream?, Logic.Output?))? in
            guard status != .terminated else { return nil }
            let released = (logic.take(), downstream.take(), held.take())
            return (terminate(), released)
        }
        guard let (upstream, released) = taken else { return }
        upstream?.cancel()
        withExtendedLifetime(released) {}
    }

    // MARK: Helpers (call `terminate` with the lock held, everything else without)

    /// Marks the end and drops every reference; returns the upstream subscription to cancel.
    @inlinable
    func terminate() -> (any Subscription)? {
        status = .terminated
        let upstream = self.upstream
        self.upstream = nil
        downstream = nil
        logic = nil
        held = nil
        return upstream
    }

    /// Adds demand returned from `receive(_:)`; returns what to ask upstream for.
    @inlinable
    func added(_ more: Subscribers.Demand) -> Subscribers.Demand {
        lock.guarded {
            guard status == .subscribed else { return .none }
            demand += more
            return demandFactor.map { more * $0 } ?? .none
        }
    }

    /// Ends early from inside the stream: cancels upstream and delivers `output` then `.finished`.
    @inlinable
    func finish(with output: Logic.Output?) {
        deliver(output, .finished, cancelling: true)
    }

    /// Sends an optional last value and the completion, holding the value while demand is zero.
    @inlinable
    func deliver(_ output: Logic.Output?, _ completion: Subscribers.Completion<Logic.Failure>, cancelling: Bool) {
        let target = lock.guarded { () -> (Downstream?, (any Subscription)?)? in
            guard status == .subscribed, let downstream else { return nil }
            let upstream = self.upstream
            self.upstream = nil
            logic = nil
            // A reducer (no demand factor) holds even an empty end until downstream asks, as
            // Combine does (C03); other operators hold only a last value.
            if completion.isFinished, demand == .none, output != nil || demandFactor == nil {
                status = .holding
                held = output
                return (nil, upstream)
            }
            _ = terminate()
            if output != nil, completion.isFinished { status = .delivering }
            return (downstream, upstream)
        }
        guard let (downstream, upstream) = target else { return }
        if cancelling { upstream?.cancel() }
        guard let downstream else { return }
        if let output, completion.isFinished {
            send(output, then: completion, to: downstream)
        } else {
            downstream.receive(completion: completion)
        }
    }

    /// Sends the last value, then the completion unless downstream cancelled meanwhile (C05).
    /// Call with `status == .delivering`.
    @inlinable
    func send(_ output: Logic.Output, then completion: Subscribers.Completion<Logic.Failure>, to downstream: Downstream) {
        _ = downstream.receive(output)
        let live = lock.guarded { () -> Bool in
            defer { status = .terminated }
            return status == .delivering
        }
        if live { downstream.receive(completion: completion) }
    }
}
