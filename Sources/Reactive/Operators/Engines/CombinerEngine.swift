import Synchronization

/// The engine behind `zip` and `combineLatest`: a fixed set of inputs feeding one downstream.
///
/// Each input keeps its values in a typed `CombinerSlot` (a buffer for `zip`, the latest value
/// for `combineLatest`), so a value is stored and combined without boxing or casting: the
/// publisher builds `combine`, which reads one value from each of its typed slots into the
/// output tuple. The engine itself only knows which slots are empty and which inputs finished,
/// as one bit per input.
///
/// Demand (C08): every input is asked for as many values as the downstream asked for in total,
/// so neither the buffers nor the output can run ahead of demand. `zip` pairs buffered values in
/// order; `combineLatest` keeps each input's latest value and a `fresh` flag, so a burst without
/// demand yields one combination of the latest values once demand arrives.
///
/// Serialisation (C25) works as in `MergeEngine`: one deliverer at a time, counted by the atomic
/// `wip`, no lock held while calling out; a value that completes an output finding nobody
/// delivering takes the lock once, and one decrement of `wip` ends its delivery.
///
/// Completion (C36): `zip` finishes as soon as an input has finished and its buffer
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
        /// A value for the downstream, which the deliverer calls in place (`deliver`).
        case value(Downstream.Input)
        /// Cancelled while this deliverer was busy: it releases the downstream (and calls a sink's
        /// `releaseAfterCancel()`, `cancel(releasing:)`).
        case release(Downstream?, (any ReleaseAfterCancel)?)
        case finish(Downstream?, CombinerRelease)
        case fail(Downstream?, CombinerRelease, Failure)
    }

    @usableFromInline let lock = Lock()
    @usableFromInline let mode: Mode
    @usableFromInline let name: String
    /// One bit per input.
    @usableFromInline let allInputs: UInt
    @usableFromInline let slots: [any CombinerSlotStorage]
    /// Called with the lock held and an output ready: reads one value from each slot (`zip`
    /// takes it, setting the slot's bit in the argument when its buffer empties).
    @usableFromInline let combine: (inout UInt) -> Downstream.Input
    /// Written with the lock held, only by the deliverer (`wip` raised by it) or, when nobody
    /// delivers, by `cancel`; so the deliverer reads it without the lock and calls it in place,
    /// without a retain (`deliver`).
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    /// A sink that left the release of its closures to this engine (`cancel(releasing:)`) and was
    /// cancelled while a deliverer was busy: that deliverer calls its `releaseAfterCancel()` when
    /// it lets the downstream go (`drain`). Under the lock.
    @usableFromInline @exclusivity(unchecked) var pendingRelease: (any ReleaseAfterCancel)?
    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var status = Status.active
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    /// Everything asked of each input so far; an input that subscribes late is asked for it all.
    @usableFromInline @exclusivity(unchecked) var forwarded = Subscribers.Demand.none
    /// Work in progress, as in `MergeEngine`: 0 when nobody delivers; raised only under the lock;
    /// lowered only by the deliverer.
    @usableFromInline let wip = Atomic<Int>(0)
    @usableFromInline @exclusivity(unchecked) var subscriptions: [(any Subscription)?]
    /// A bit per input that finished.
    @usableFromInline @exclusivity(unchecked) var finished: UInt = 0
    /// A bit per input with nothing to combine: `zip`, an empty buffer; `combineLatest`, no
    /// value yet.
    @usableFromInline @exclusivity(unchecked) var empty: UInt
    /// `combineLatest`: a value arrived since the last combination, and every input has one.
    @usableFromInline @exclusivity(unchecked) var fresh = false

    /// Creates the engine for `slots` (slot `i` has index `i`); `combine` reads them.
    @inlinable
    init(
        downstream: Downstream, slots: [any CombinerSlotStorage], mode: Mode, name: String,
        combine: @escaping (inout UInt) -> Downstream.Input
    ) {
        self.downstream = downstream
        self.slots = slots
        self.mode = mode
        self.name = name
        self.combine = combine
        allInputs = (1 << UInt(slots.count)) &- 1
        empty = allInputs
        subscriptions = Array(repeating: nil, count: slots.count)
    }

    @usableFromInline var description: String { name }

    @inlinable var isActive: Bool {
        if case .active = status { return true }
        return false
    }

    /// With the lock held: nobody delivers.
    @inlinable var isIdle: Bool { wip.load(ordering: .acquiring) == 0 }

    /// With the lock held, after leaving work for a busy deliverer: raises `wip` so it looks at
    /// the state again; `true` if it had left meanwhile and the caller is now the deliverer.
    @inlinable func signal() -> Bool { wip.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 1 }

    /// With the lock held: claims the delivery when idle, or leaves the work to the deliverer;
    /// `true` if the caller is now the deliverer.
    @inlinable
    func claim() -> Bool {
        if isIdle {
            wip.store(1, ordering: .relaxed)
            return true
        }
        return signal()
    }

    /// Whether the storage still wants its inputs subscribed.
    @inlinable var isLive: Bool { lock.guarded { isActive } }

    /// Subscribes to one input, storing its values in `slot`.
    @usableFromInline
    struct Side<Input>: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Failure = Downstream.Failure
        @usableFromInline let storage: CombinerEngine
        @usableFromInline let slot: CombinerSlot<Input>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable init(storage: CombinerEngine, slot: CombinerSlot<Input>) {
            self.storage = storage
            self.slot = slot
        }

        @usableFromInline var description: String { storage.name }

        @inlinable func receive(subscription: any Subscription) { storage.sideSubscribed(slot.index, subscription) }
        @inlinable func receive(_ input: Input) -> Subscribers.Demand {
            storage.sideReceive(slot, input)
            return .none
        }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) { storage.sideCompleted(slot.index, completion) }
    }

    /// Subscribes `publisher` as the input whose values go to `slot`, unless the storage already
    /// terminated.
    @inlinable
    func attach<P: Publisher>(_ publisher: P, to slot: CombinerSlot<P.Output>) where P.Failure == Failure {
        guard isLive else { return }
        publisher.subscribe(Side<P.Output>(storage: self, slot: slot))
    }

    // MARK: With the lock held

    @inlinable
    var hasReady: Bool {
        switch mode {
        case .zip: return empty == 0
        case .latest: return fresh
        }
    }

    /// The next output; call only when `hasReady`.
    @inlinable
    func takeReady() -> Downstream.Input {
        if case .latest = mode { fresh = false }
        return combine(&empty)
    }

    @inlinable
    var shouldFinish: Bool {
        switch mode {
        case .zip: return finished & empty != 0
        case .latest: return !fresh && finished == allInputs
        }
    }

    /// Empties every slot and drops the subscriptions; what it returns holds them, to cancel and
    /// release after the lock is dropped.
    @inlinable
    func release() -> CombinerRelease {
        var cancels: ContiguousArray<any Subscription> = []
        for case let subscription? in subscriptions { cancels.append(subscription) }
        subscriptions = Array(repeating: nil, count: slots.count)
        var contents: [Any] = []
        for slot in slots { contents.append(slot.removeAll()) }
        empty = allInputs
        fresh = false
        return CombinerRelease(cancels: cancels, contents: contents)
    }

    // MARK: Inputs

    @inlinable
    func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
        let ask = lock.guarded { () -> Subscribers.Demand? in
            guard isActive, subscriptions[index] == nil, finished & (1 << UInt(index)) == 0 else { return nil }
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
    func sideReceive<Input>(_ slot: CombinerSlot<Input>, _ value: Input) {
        let bit = slot.bit
        var replaced: Input?
        var mustDrain = false
        var mayEnd = false
        let next = lock.guarded { () -> Downstream.Input? in
            guard isActive, finished & bit == 0 else { return nil }
            switch mode {
            case .zip:
                slot.append(value)
                empty &= ~bit
            case .latest:
                replaced = slot.latest
                slot.latest = value
                empty &= ~bit
                if empty == 0 { fresh = true }
            }
            guard isIdle else {
                // The deliverer looks again before it stops.
                mustDrain = signal()
                return nil
            }
            guard demand > 0, hasReady, downstream != nil else { return nil }
            wip.store(1, ordering: .relaxed)
            demand -= 1
            let output = takeReady()
            // Taking it emptied this input's slot (`zip`) or the `fresh` flag, so nothing else
            // is ready; only the end may be due (an input that finished with this value buffered).
            mayEnd = !shouldFinish
            return output
        }
        // The value `latest` held is released here, outside the lock.
        withExtendedLifetime(replaced) {}
        if let output = next {
            let more = deliver(output)
            // Nothing was left over when this output was taken: unless somebody raised `wip`
            // meanwhile or the downstream asks for more, the delivery ends here.
            if mayEnd, more == .none, wip.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
            drain(more: more)
        } else if mustDrain {
            drain()
        }
    }

    @inlinable
    func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
        var released: CombinerRelease?
        let target = lock.guarded { () -> Downstream? in
            guard isActive, finished & (1 << UInt(index)) == 0 else { return nil }
            finished |= 1 << UInt(index)
            subscriptions[index] = nil
            switch completion {
            case .failure(let error):
                released = release()
                if !claim() {
                    // The deliverer sends the failure once its value is delivered.
                    status = .failing(error)
                    return nil
                }
                status = .terminated
                let target = downstream
                downstream = nil
                return target
            case .finished:
                // Terminating keeps `wip` raised for good; a busy deliverer finishes instead.
                guard shouldFinish, claim() else { return nil }
                status = .terminated
                released = release()
                let target = downstream
                downstream = nil
                return target
            }
        }
        released?.cancel()
        target?.receive(completion: completion)
    }

    // MARK: Delivery

    /// Delivers ready outputs while there is demand, then finishes if the inputs are done. Call as
    /// the deliverer; `more` is the demand the last delivered value returned. Under the lock
    /// nobody else raises `wip`, so the deliverer sets it to what it does next.
    @inlinable
    func drain(more: Subscribers.Demand = .none) {
        var more = more
        while true {
            var askMore: [(any Subscription)?] = []
            let asked = more
            let step = lock.guarded { () -> Step in
                switch status {
                case .terminated:
                    // A cancel while this deliverer was busy left the downstream to it.
                    guard downstream != nil else { return .stop }
                    let target = downstream
                    downstream = nil
                    let released = pendingRelease
                    pendingRelease = nil
                    return .release(target, released)
                case .failing(let error):
                    status = .terminated
                    let target = downstream
                    downstream = nil
                    return .fail(target, release(), error)
                case .active:
                    break
                }
                if asked > 0 {
                    demand += asked
                    forwarded += asked
                    askMore = subscriptions
                }
                if demand > 0, hasReady, downstream != nil {
                    demand -= 1
                    wip.store(1, ordering: .relaxed)
                    return .value(takeReady())
                }
                guard shouldFinish else {
                    wip.store(0, ordering: .releasing)
                    return .stop
                }
                status = .terminated
                let target = downstream
                downstream = nil
                return .finish(target, release())
            }
            for case let subscription? in askMore { subscription.request(asked) }
            more = .none
            switch step {
            case .stop:
                return
            case .release(let target, let released):
                withExtendedLifetime(target) {}
                released?.releaseAfterCancel()
                return
            case .value(let output):
                more = deliver(output)
            case .finish(let target, let released):
                released.cancel()
                target?.receive(completion: .finished)
                return
            case .fail(let target, let released, let error):
                released.cancel()
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
            guard hasReady else { return false }
            return claim()
        }
        for case let subscription? in subscriptions { subscription.request(more) }
        if start { drain() }
    }

    @inlinable
    func cancel() {
        var target: Downstream?
        let released = lock.guarded { () -> CombinerRelease? in
            if case .terminated = status { return nil }
            status = .terminated
            // Nobody delivering: the cancel takes the downstream (and `wip` stays raised for
            // good). A busy deliverer is signalled instead and releases it as it looks again.
            if claim() {
                target = downstream
                downstream = nil
            }
            return release()
        }
        released?.cancel()
        // The downstream is released here, outside the lock.
        withExtendedLifetime(target) {}
    }

    /// `cancel()` for a sink that left the release of its closures to the engine: it calls the
    /// sink's `releaseAfterCancel()` once nothing calls the downstream and nothing will: at once
    /// when nobody delivers, else by the busy deliverer when it lets the downstream go.
    @usableFromInline
    func cancel(releasing subscriber: any ReleaseAfterCancel) {
        var target: Downstream?
        var releaseNow = false
        let released = lock.guarded { () -> CombinerRelease? in
            if case .terminated = status {
                // Kept only for a busy deliverer that has not let it go yet (a cancel found it
                // busy); otherwise the engine ended, and whoever ended it sends nothing more than
                // the completion, which the cancelled sink ignores.
                if downstream != nil {
                    pendingRelease = subscriber
                } else {
                    releaseNow = true
                }
                return nil
            }
            status = .terminated
            if claim() {
                target = downstream
                downstream = nil
                releaseNow = true
            } else {
                pendingRelease = subscriber
            }
            return release()
        }
        released?.cancel()
        withExtendedLifetime(target) {}
        if releaseNow { subscriber.releaseAfterCancel() }
    }

    /// Sends `output` to the downstream, called in place. Only the deliverer, without the lock:
    /// nobody else writes `downstream` meanwhile.
    @inlinable
    @inline(__always)
    func deliver(_ output: Downstream.Input) -> Subscribers.Demand {
        receiveInPlace(&downstream!, output)
    }
}

/// What a terminated `CombinerEngine` lets go of: the inputs' subscriptions (to cancel) and the
/// values its slots held, released when this is dropped (outside the lock).
@usableFromInline
struct CombinerRelease {
    @usableFromInline var cancels: ContiguousArray<any Subscription>
    @usableFromInline var contents: [Any]

    @inlinable
    init(cancels: ContiguousArray<any Subscription>, contents: [Any]) {
        self.cancels = cancels
        self.contents = contents
    }

    /// Cancels the subscriptions of the inputs that had not completed.
    @inlinable
    func cancel() {
        for subscription in cancels { subscription.cancel() }
    }
}

/// The part of a `CombinerSlot` the engine needs without knowing its value type: emptying it
/// at termination.
@usableFromInline
protocol CombinerSlotStorage: AnyObject {
    /// Empties the slot and returns what it held, for the caller to release outside the lock.
    func removeAll() -> Any
}

/// One input's values in a `CombinerEngine`, typed: the `zip` buffer (oldest first) or the
/// `combineLatest` latest value. Reached only with the engine's lock held.
///
/// The `zip` buffer keeps its oldest value in `first` and only the values behind it in `rest`:
/// inputs that take turns (one value each, then a pair) never touch the array. Emptying an array
/// with `removeAll(keepingCapacity:)` after every pair, and the uniqueness checks of its appends,
/// were a third of a `zip` pair's instructions.
@usableFromInline
final class CombinerSlot<Value>: CombinerSlotStorage {
    @usableFromInline let index: Int
    /// This input's bit in the engine's masks.
    @usableFromInline let bit: UInt
    /// `zip`: the oldest buffered value (`nil`: the buffer is empty).
    @usableFromInline @exclusivity(unchecked) var first: Value?
    /// `zip`: the values after `first`, oldest first from `head`. Taken values are moved out
    /// (left `nil`), so emptying the array releases nothing.
    @usableFromInline @exclusivity(unchecked) var rest: ContiguousArray<Value?> = []
    @usableFromInline @exclusivity(unchecked) var head = 0
    @usableFromInline @exclusivity(unchecked) var latest: Value?

    @inlinable
    init(index: Int) {
        self.index = index
        bit = 1 << UInt(index)
    }

    /// `zip`: buffers `value` behind the ones already there.
    @inlinable
    func append(_ value: Value) {
        if first == nil {
            first = value
        } else {
            rest.append(value)
        }
    }

    /// `zip`: removes and returns the oldest buffered value, setting this slot's bit in `empty`
    /// when none is left.
    @inlinable
    func take(_ empty: inout UInt) -> Value {
        let value = first.take()!
        if head < rest.count {
            first = rest[head].take()
            head &+= 1
            if head == rest.count {
                rest.removeAll(keepingCapacity: true)
                head = 0
            }
        } else {
            empty |= bit
        }
        return value
    }

    /// `combineLatest`: the latest value; call only once every input has one.
    @inlinable
    var current: Value { latest! }

    @usableFromInline
    func removeAll() -> Any {
        let contents = (first, rest, latest)
        first = nil
        rest = []
        head = 0
        latest = nil
        return contents
    }
}

extension CombinerEngine: ReleaseHandOffSource {}
