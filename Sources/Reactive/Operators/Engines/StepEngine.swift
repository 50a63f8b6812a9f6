import Synchronization

/// The wrapping subscription every stateful single-upstream operator shares.
///
/// It sits between upstream and downstream: upstream sees it as the subscriber, downstream as
/// the subscription. It can cancel upstream when the logic is done early or fails, ignore late
/// signals, and hold a final value until downstream asks for it (C03, C05, C33). `Logic` decides
/// what each signal means.
///
/// Two kinds of state, guarded differently:
/// - The logic and the downstream (`parts`) belong to whoever *owns the flow*: the thread inside
///   `receive(_:)` or `receive(completion:)` (upstream never enters those twice at once, C25), or
///   the thread releasing a held value. Owning is one compare-and-swap of `flow` in and one out, so
///   a value costs no lock, no move of the logic and no copy of the downstream (it is a `let` of
///   `parts`, called borrowed). A value finds the flow open or drops.
/// - Status, upstream, demand requested by downstream and a held value are guarded by `lock`:
///   the cancel, request and termination handshake.
///
/// Release (C16, C17): a cancel closes the flow; if nobody owns it, the cancel releases `parts` at
/// once, otherwise the owner does as it leaves (a cancel from inside `receive`, or from another
/// thread while a value is in flight). Exactly one of them sees the other in `flow`. Both ends
/// of a value are read-modify-writes because anything less loses that agreement: with a plain
/// store on either side, the owner and a cancel on another thread can each miss the other (a
/// store waits in its core's buffer while the next load runs), and the release is then lost or
/// runs under a value in flight. Those two were about half of a `tryMap`/`tryFilter` value's
/// time: a per-value operator therefore runs without an engine (`PerValueRelay.swift`) unless it
/// can fuse into the step engine after it (`StepFusion.swift`), which keeps one pair per value.
///
/// C15: once `cancel()` returns, no delivery starts on that thread, and a value whose logic ran
/// while the cancel happened is dropped; a delivery that had already passed that check on
/// another thread may still complete, but no completion ever follows a cancel (C05).
@usableFromInline
final class StepEngine<Logic: StepLogic, Downstream: Subscriber>: StepFusionBase<Logic.Input, Logic.UpstreamFailure>, Subscriber,
    Subscription, CustomStringConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
    @usableFromInline typealias Input = Logic.Input
    @usableFromInline typealias Failure = Logic.UpstreamFailure
    @usableFromInline typealias Parts = StepParts<Logic, Downstream>

    /// `delivering`: the last value is on its way; a cancel during it suppresses the completion (C05).
    @usableFromInline enum Status { case awaitingSubscription, subscribed, holding, delivering, terminated }
    @usableFromInline enum RequestAction { case none, forward(any Subscription, Subscribers.Demand), release(Logic.Output?) }

    /// Who may touch `parts`: `StepFlow` bits.
    @usableFromInline let flow = Atomic<UInt8>(StepFlow.closed)
    /// The logic and the downstream, retained by hand; `nil` once released. Read by the flow's
    /// owner without the lock (nobody releases it while the flow is owned), written under `lock`.
    @usableFromInline @exclusivity(unchecked) var parts: Unmanaged<Parts>?

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) var status = Status.awaitingSubscription
    /// Demand downstream requested (`request(_:)`); only a final value needs the total.
    @usableFromInline @exclusivity(unchecked) var requested = Subscribers.Demand.none
    /// The final value waiting for demand while `status == .holding` (nil: only `.finished` waits).
    @usableFromInline @exclusivity(unchecked) var held: Logic.Output?

    /// Demand downstream returned from `receive(_:)`, and values sent: touched only by the flow's
    /// owner, so the value path counts without the lock; the end reads them to decide whether a
    /// final value has demand.
    @usableFromInline @exclusivity(unchecked) var returned = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var emitted = 0

    @usableFromInline let demandFactor: Int?
    @usableFromInline let finishedAtStart: Bool

    @inlinable
    init(logic: Logic, downstream: Downstream) {
        self.demandFactor = logic.demandFactor
        self.finishedAtStart = logic.isFinishedAtStart
        self.parts = Unmanaged.passRetained(Parts(logic: logic, downstream: downstream))
        super.init()
    }

    deinit {
        parts?.release()
    }

    @usableFromInline var description: String { Logic.operatorName }

    // MARK: Upstream side

    @inlinable
    func receive(subscription: any Subscription) {
        // A strong reference for this call: downstream may cancel from inside it (C21, C23).
        let target = lock.guarded { () -> Parts? in
            guard status == .awaitingSubscription, let parts else { return nil }
            status = .subscribed
            upstream = subscription
            return parts.takeUnretainedValue()
        }
        guard let target else {
            subscription.cancel()  // C06: keep the first subscription
            return
        }
        // Open before downstream can ask: a synchronous upstream sends inside that request.
        _ = flow.compareExchange(expected: StepFlow.closed, desired: StepFlow.open, ordering: .releasing)
        target.downstream.receive(subscription: self)
        if finishedAtStart {
            if enter() { end(with: nil, .finished, cancellingUpstream: true) }
        } else if demandFactor == nil, lock.guarded({ status == .subscribed }) {
            subscription.request(.unlimited)
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard enter() else { return .none }
        let parts = self.parts.unsafelyUnwrapped
        switch parts._withUnsafeGuaranteedRef({ $0.logic!.receive(input) }) {
        case .emit(let output):
            // A cancel while the logic ran closed the flow: the value is dropped (C15).
            guard flow.load(ordering: .relaxed) == StepFlow.busy else {
                leave(closing: false)
                return .none
            }
            emitted &+= 1
            let more = parts._withUnsafeGuaranteedRef { $0.downstream.receive(output) }
            if more > 0 { returned += more }
            leave()
            guard more > 0, let factor = demandFactor else { return .none }
            return more * factor
        case .skip(let extra):
            leave()
            return extra
        case .finish(let output):
            end(with: output, .finished, cancellingUpstream: true)
            return .none
        case .fail(let error):
            fail(error)
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard enter() else { return }
        let live = lock.guarded { () -> Bool in
            guard status == .subscribed else { return false }
            upstream = nil
            return true
        }
        guard live else { return leave(closing: true) }
        let (output, ending) = withParts { $0.logic!.complete(completion) }
        end(with: output, ending, cancellingUpstream: false)
    }

    // MARK: Downstream side

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }  // C07: request(.none) is a no-op
        let action = lock.guarded { () -> RequestAction in
            switch status {
            case .subscribed:
                requested += more
                guard let factor = demandFactor, let upstream else { return .none }
                return .forward(upstream, more * factor)
            case .holding:
                let output = held.take()
                status = output != nil ? .delivering : .terminated
                return .release(output)
            case .awaitingSubscription, .delivering, .terminated:
                return .none
            }
        }
        switch action {
        case .none:
            break
        case .forward(let upstream, let demand):
            upstream.request(demand)
        case .release(let output):
            // The flow is closed while holding; owning it keeps a racing cancel from releasing the
            // downstream under this call. A cancel that got in first released it: send nothing.
            guard flow.compareExchange(expected: StepFlow.closed, desired: StepFlow.closed | StepFlow.busy, ordering: .acquiring).exchanged else {
                return
            }
            if let output {
                send(output, then: .finished)
            } else {
                withParts { $0.downstream.receive(completion: .finished) }
            }
            retire()
        }
    }

    @inlinable
    func cancel() {
        let taken = lock.guarded { () -> ((any Subscription)?, Logic.Output?, UInt8)? in
            guard status != .terminated else { return nil }
            status = .terminated
            // The flow closes in the same lock hold: were it closed after the lock, a second
            // cancel (downstream's own, from inside `receive`) could find the status terminated
            // and return while values still entered the open flow (C05, C15).
            let before = flow.bitwiseOr(StepFlow.closed | StepFlow.released, ordering: .acquiringAndReleasing).oldValue
            let upstream = self.upstream
            self.upstream = nil
            return (upstream, held.take(), before)
        }
        guard let (upstream, held, before) = taken else { return }
        upstream?.cancel()
        // The logic (user closures), the downstream and a held value are released after the lock:
        // a captured object's deinit may call back into this subscription (C23). While the flow
        // is owned, its owner releases them as it leaves.
        if before & StepFlow.busy == 0 { releaseParts() }
        withExtendedLifetime(held) {}
    }

    // MARK: Fusion (see `StepFusion.swift`)

    /// Gives this fresh engine's logic and downstream to one engine that runs `first` before them.
    @inlinable
    override func subscribe<Upstream: Publisher, First: PerValueLogic>(_ upstream: Upstream, fusing first: First) -> Bool
    where First.Output == Logic.Input, First.Failure == Logic.UpstreamFailure, Upstream.Output == First.Input, Upstream.Failure == First.UpstreamFailure {
        let taken = lock.guarded { () -> Parts? in
            guard status == .awaitingSubscription, let parts else { return nil }
            status = .terminated
            self.parts = nil
            return parts.takeRetainedValue()
        }
        guard let taken, let logic = taken.logic else { return false }
        let fused = StepEngine<FusedLogic<First, Logic>, Downstream>(logic: FusedLogic(first: first, second: logic), downstream: taken.downstream)
        upstream.receive(subscriber: fused)
        return true
    }

    // MARK: Owning the flow

    /// Takes the open flow for one signal from upstream; `false`: closed (not subscribed yet,
    /// ended or cancelled), or owned by a re-entrant call, and the signal is dropped.
    @inlinable
    @inline(__always)
    func enter() -> Bool {
        flow.compareExchange(expected: StepFlow.open, desired: StepFlow.busy, ordering: .acquiring).exchanged
    }

    /// Gives the flow back after a value.
    @inlinable
    @inline(__always)
    func leave() {
        if !flow.compareExchange(expected: StepFlow.busy, desired: StepFlow.open, ordering: .releasing).exchanged {
            leave(closing: false)
        }
    }

    /// Gives the flow back, closed if `closing`; releases `parts` when a cancel asked for that
    /// while the flow was owned.
    @inlinable
    func leave(closing: Bool) {
        var current = flow.load(ordering: .acquiring)
        while true {
            if current & StepFlow.released != 0 {
                flow.store(StepFlow.closed | StepFlow.released, ordering: .releasing)
                releaseParts()
                return
            }
            let next = (current & ~StepFlow.busy) | (closing ? StepFlow.closed : 0)
            let (exchanged, original) = flow.compareExchange(expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Ends for good from the flow's owner, once the last signal went downstream.
    @inlinable
    func retire() {
        flow.store(StepFlow.closed | StepFlow.released, ordering: .releasing)
        releaseParts()
    }

    /// Calls `body` with the parts, borrowed; only while owning the flow.
    @inlinable
    @inline(__always)
    func withParts<R>(_ body: (Parts) -> R) -> R {
        parts.unsafelyUnwrapped._withUnsafeGuaranteedRef(body)
    }

    /// Drops the logic and the downstream; once, by whoever `flow` made responsible.
    @inlinable
    func releaseParts() {
        let taken = lock.guarded { parts.take() }
        taken?.release()
    }

    // MARK: Ending (from the flow's owner)

    /// The demand downstream has left for a final value. Call with the lock held, owning the flow.
    @inlinable
    var available: Subscribers.Demand { requested + returned - emitted }

    /// Ends from inside the stream: sends an optional last value and the completion, holding the
    /// value while demand is zero, and cancels upstream when the end came early.
    @inlinable
    func end(with output: Logic.Output?, _ completion: Subscribers.Completion<Logic.Failure>, cancellingUpstream: Bool) {
        let target = lock.guarded { () -> (send: Bool, upstream: (any Subscription)?)? in
            guard status == .subscribed else { return nil }
            let upstream = self.upstream
            self.upstream = nil
            // A reducer (no demand factor) holds even an empty end until downstream asks, as
            // Combine does (C03); other operators hold only a last value.
            if completion.isFinished, available == .none, output != nil || demandFactor == nil {
                status = .holding
                held = output
                return (false, upstream)
            }
            status = output != nil && completion.isFinished ? .delivering : .terminated
            return (true, upstream)
        }
        guard let target else { return leave(closing: true) }
        if cancellingUpstream { target.upstream?.cancel() }
        // C17: the logic's closures go with the end, before downstream hears of it.
        withParts { $0.logic = nil }
        guard target.send else { return leave(closing: true) }
        if let output, completion.isFinished {
            send(output, then: completion)
        } else {
            withParts { $0.downstream.receive(completion: completion) }
        }
        retire()
    }

    /// Fails from inside the stream (a user closure threw): cancels upstream, one `.failure` (C33).
    @inlinable
    func fail(_ error: Logic.Failure) {
        let target = lock.guarded { () -> (any Subscription)?? in
            guard status == .subscribed else { return nil }
            status = .terminated
            let upstream = self.upstream
            self.upstream = nil
            return .some(upstream)
        }
        guard let upstream = target else { return leave(closing: true) }
        upstream?.cancel()
        withParts { $0.downstream.receive(completion: .failure(error)) }
        retire()
    }

    /// Sends the last value, then the completion unless downstream cancelled meanwhile (C05).
    /// Call owning the flow, with `status == .delivering`.
    @inlinable
    func send(_ output: Logic.Output, then completion: Subscribers.Completion<Logic.Failure>) {
        _ = withParts { $0.downstream.receive(output) }
        let live = lock.guarded { () -> Bool in
            defer { status = .terminated }
            return status == .delivering
        }
        if live { withParts { $0.downstream.receive(completion: completion) } }
    }
}

/// The bits of `StepEngine.flow`.
@usableFromInline
enum StepFlow {
    /// Values may enter.
    @inlinable static var open: UInt8 { 0 }
    /// A thread owns the parts (a signal from upstream, or the release of a held value).
    @inlinable static var busy: UInt8 { 1 }
    /// No more values enter: not subscribed yet, ended, holding, or cancelled.
    @inlinable static var closed: UInt8 { 2 }
    /// The parts are released, or are to be released by the owner as it leaves.
    @inlinable static var released: UInt8 { 4 }
}

/// What a `StepEngine`'s flow owner works on: the logic (mutated in place, so collect's array
/// stays uniquely referenced and appends do not copy it) and the downstream, a `let` so calling it
/// needs no retain or copy.
@usableFromInline
final class StepParts<Logic: StepLogic, Downstream: Subscriber> {
    @usableFromInline @exclusivity(unchecked) var logic: Logic?
    @usableFromInline let downstream: Downstream

    @inlinable
    init(logic: Logic, downstream: Downstream) {
        self.logic = logic
        self.downstream = downstream
    }
}
