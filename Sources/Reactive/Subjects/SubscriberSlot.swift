// Where a conduit keeps its subscriber, and the lifetime rule that lets it call the subscriber
// without retaining it.
//
// The subscriber lives in the conduit's `slot`, one word in a `NarrowConduit` (an object such as a
// `Sink`, or a box) or seven in a `WideConduit` (an operator's subscriber around a sink), and is
// called through one closure that captures nothing, made in `slotCall(for:)` where the type is
// known (one closure, not one per kind of call: each is two words in every conduit). An object (a
// `Sink`) is kept as a reference retained by hand and called without a retain; a struct is kept in
// place when it fits in seven words, so subscribing allocates nothing more, and a larger one in a
// `SubscriberBox`. Only the thread that may call the subscriber (the conduit's deliverer, or
// whoever raised `wip` from 0 for good) releases it, so a value in flight never meets a released
// subscriber.
//
// Two sizes, not one: a conduit with a seven-word slot is a 152-byte object for every subscriber,
// and a plain `Sink`'s conduit would then be a 160-byte malloc chunk, beyond glibc's fast bins
// (128), so that freeing each coalesces it with its neighbours (5% of a subscribe, more of a
// cancel). The narrow one is 104 bytes. Not a subclass per subscriber type holding it as an `S?`:
// that class's deinit is generic, and destroying the field looks up `Optional<S>`'s metadata on
// every free (300 instructions); and its methods, reached through the vtable, would run generic.

/// Room for a subscriber inside a `WideConduit`: seven words, enough for two operators'
/// subscribers around a sink (`map.filter.sink`: a downstream reference, and a closure and an
/// identifier per operator), the common shape; a box for those would be a fourth object per
/// subscription.
@usableFromInline
typealias SubscriberSlot = (UInt, UInt, UInt, UInt, UInt, UInt, UInt)

/// A conduit whose subscriber takes one word: an object, a boxed struct or a struct of one word.
@usableFromInline
final class NarrowConduit<Output, Failure: Error>: SubjectConduit<Output, Failure> {
    /// The subscriber (see the top) while `holdsSubscriber`.
    @usableFromInline @exclusivity(unchecked) final var slot: UInt = 0

    @inlinable
    @inline(__always)
    init<S: Subscriber>(storage: SubjectStorage<Output, Failure>, owner: AnyObject, subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        super.init(storage: storage, owner: owner, call: slotCall(for: S.self))
        store(subscriber)
    }
}

/// A conduit whose subscriber is a struct of two to seven words, kept in place.
@usableFromInline
final class WideConduit<Output, Failure: Error>: SubjectConduit<Output, Failure> {
    /// The subscriber (see the top) while `holdsSubscriber`.
    @usableFromInline @exclusivity(unchecked) final var slot: SubscriberSlot = (0, 0, 0, 0, 0, 0, 0)

    @inlinable
    @inline(__always)
    init<S: Subscriber>(storage: SubjectStorage<Output, Failure>, owner: AnyObject, subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        super.init(storage: storage, owner: owner, call: slotCall(for: S.self))
        store(subscriber)
    }
}

extension SubjectStorage {
    /// A conduit for `subscriber`, of the size its slot needs.
    @inlinable
    @inline(__always)
    func makeConduit<S: Subscriber>(for subscriber: S, owner: AnyObject) -> SubjectConduit<Output, Failure>
    where S.Input == Output, S.Failure == Failure {
        if SlotLayout.of(S.self).isWide { return WideConduit(storage: self, owner: owner, subscriber: subscriber) }
        return NarrowConduit(storage: self, owner: owner, subscriber: subscriber)
    }
}

/// Holds a subscriber too large for a `SubscriberSlot`, as a `let`, so calling it needs no retain.
@usableFromInline
final class SubscriberBox<S> {
    @usableFromInline let subscriber: S
    @inlinable init(_ subscriber: S) { self.subscriber = subscriber }
}

/// How a subscriber of one type is laid out in a conduit's slot.
@usableFromInline
enum SlotLayout {
    /// A class instance: its reference, retained by hand, in a `NarrowConduit`.
    case object
    /// A struct of one word, in place in a `NarrowConduit`.
    case narrow
    /// A struct of up to seven words, in place in a `WideConduit`.
    case wide
    /// A larger struct, in a `SubscriberBox` referenced from a `NarrowConduit`.
    case boxed

    @inlinable
    static func of<S>(_: S.Type) -> SlotLayout {
        // A class instance is one strong reference: `store` reinterprets it as `AnyObject`
        // without a cast, which the size check keeps honest.
        if S.self is AnyObject.Type, MemoryLayout<S>.size == MemoryLayout<AnyObject>.size { return .object }
        if MemoryLayout<S>.size <= MemoryLayout<UInt>.size, MemoryLayout<S>.alignment <= MemoryLayout<UInt>.alignment {
            return .narrow
        }
        if MemoryLayout<S>.size <= MemoryLayout<SubscriberSlot>.size,
            MemoryLayout<S>.alignment <= MemoryLayout<SubscriberSlot>.alignment
        {
            return .wide
        }
        return .boxed
    }

    /// Whether the subscriber needs a `WideConduit`.
    @inlinable
    var isWide: Bool {
        if case .wide = self { return true }
        return false
    }
}

/// What a conduit asks of the subscriber in its slot.
@usableFromInline
enum SlotOperation {
    /// `receive(_:)` with the `Output` the argument points at.
    case value
    /// `receive(completion:)` with the completion the argument points at.
    case completion
    /// Release what the slot holds (no argument).
    case destroy
}

/// The call a conduit makes on the subscriber in its slot; returns the demand `receive(_:)`
/// returned, `.none` for the other operations.
@usableFromInline
typealias SlotCall = (SubjectConduitBase, SlotOperation, UnsafeRawPointer?) -> Subscribers.Demand

/// The call for subscribers of type `S`: a closure that captures nothing, made where `S` is known,
/// so the conduit itself needs only `Output` and `Failure`.
@inlinable
func slotCall<S: Subscriber>(for _: S.Type) -> SlotCall {
    typealias Completion = Subscribers.Completion<S.Failure>
    switch SlotLayout.of(S.self) {
    case .object:
        // `_unsafeReferenceCast` keeps the reference borrowed (a generic `unsafeBitCast` would
        // retain it for the call).
        return { conduit, operation, argument in
            switch operation {
            case .value:
                return conduit.slotObject(of: S.self)._withUnsafeGuaranteedRef {
                    _unsafeReferenceCast($0, to: S.self).receive(argument.unsafelyUnwrapped.assumingMemoryBound(to: S.Input.self).pointee)
                }
            case .completion:
                conduit.slotObject(of: S.self)._withUnsafeGuaranteedRef {
                    _unsafeReferenceCast($0, to: S.self).receive(completion: argument.unsafelyUnwrapped.assumingMemoryBound(to: Completion.self).pointee)
                }
            case .destroy:
                conduit.slotObject(of: S.self).release()
            }
            return .none
        }
    case .narrow, .wide:
        return { conduit, operation, argument in
            conduit.withSlot(of: S.self) { slot in
                let subscriber = slot.assumingMemoryBound(to: S.self)
                switch operation {
                case .value:
                    return receiveInPlace(&subscriber.pointee, argument.unsafelyUnwrapped.assumingMemoryBound(to: S.Input.self).pointee)
                case .completion:
                    subscriber.pointee.receive(completion: argument.unsafelyUnwrapped.assumingMemoryBound(to: Completion.self).pointee)
                case .destroy:
                    subscriber.deinitialize(count: 1)
                }
                return .none
            }
        }
    case .boxed:
        typealias Box = SubscriberBox<S>
        return { conduit, operation, argument in
            let box = Unmanaged<Box>.fromOpaque(conduit.slotObject(of: S.self).toOpaque())
            switch operation {
            case .value:
                return box._withUnsafeGuaranteedRef { $0.subscriber.receive(argument.unsafelyUnwrapped.assumingMemoryBound(to: S.Input.self).pointee) }
            case .completion:
                box._withUnsafeGuaranteedRef { $0.subscriber.receive(completion: argument.unsafelyUnwrapped.assumingMemoryBound(to: Completion.self).pointee) }
            case .destroy:
                box.release()
            }
            return .none
        }
    }
}

/// Calls `receive(_:)` on a subscriber kept in place in a conduit's slot, without copying it.
///
/// Called as `subscriber.pointee.receive(_:)`, the struct is copied out of the slot for the call
/// (the callee might write the slot through another pointer), a retain and a release of each
/// reference in it: two pairs per value for a `zip` side, three for `map.filter.sink`. An `inout`
/// parameter is exclusive, so here the optimiser borrows it in place. Never inlined: inlined, the
/// parameter would be the slot's pointer again.
@inlinable
@inline(never)
func receiveInPlace<S: Subscriber>(_ subscriber: inout S, _ input: S.Input) -> Subscribers.Demand {
    subscriber.receive(input)
}

/// `receive(subscription:)` on a subscriber kept in place in a conduit's slot, without copying it
/// (see `receiveInPlace`).
@inlinable
@inline(never)
func receiveSubscriptionInPlace<S: Subscriber>(_ subscriber: inout S, _ subscription: any Subscription) {
    subscriber.receive(subscription: subscription)
}

extension SubjectConduitBase {
    /// The object kept in the slot of this conduit, a `NarrowConduit` for subscribers of type `S`.
    @inlinable
    @inline(__always)
    final func slotObject<S: Subscriber>(of _: S.Type) -> Unmanaged<AnyObject> {
        let narrow = unsafeDowncast(self, to: NarrowConduit<S.Input, S.Failure>.self)
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: narrow.slot).unsafelyUnwrapped)
    }

    /// Calls `body` with the address of the slot of this conduit, made for subscribers of type `S`.
    @inlinable
    @inline(__always)
    final func withSlot<S: Subscriber, R>(of _: S.Type, _ body: (UnsafeMutableRawPointer) -> R) -> R {
        if SlotLayout.of(S.self).isWide {
            let wide = unsafeDowncast(self, to: WideConduit<S.Input, S.Failure>.self)
            return withUnsafeMutableBytes(of: &wide.slot) { body($0.baseAddress.unsafelyUnwrapped) }
        }
        let narrow = unsafeDowncast(self, to: NarrowConduit<S.Input, S.Failure>.self)
        return withUnsafeMutableBytes(of: &narrow.slot) { body($0.baseAddress.unsafelyUnwrapped) }
    }

    /// Hands this conduit to the subscriber of type `S` in its slot, as its subscription and the
    /// source that takes a `Sink`'s release over when the subscriber is a relay
    /// (`ReleaseHandOff.swift`), read in place (a class reference's slot holds the reference
    /// itself); a boxed subscriber (larger than a slot) gets a plain subscription. Only the thread
    /// that may call the subscriber (`wip` is 1 while it is attached). A `CurrentValueSubject`
    /// delivers its value from inside `receive(subscription:)` through the same slot
    /// (`receiveInPlace`): two overlapping accesses, which is sound because `Subscriber`'s methods
    /// are not mutating, so neither writes the struct in the slot.
    @inlinable
    final func handSubscription<S: Subscriber>(to _: S.Type) {
        switch SlotLayout.of(S.self) {
        case .object, .narrow, .wide:
            withSlot(of: S.self) { slot in
                let subscriber = slot.assumingMemoryBound(to: S.self)
                if !receiveHandingOff(at: subscriber, subscription: self, handOff: self) {
                    receiveSubscriptionInPlace(&subscriber.pointee, self)
                }
            }
        case .boxed:
            let box = Unmanaged<SubscriberBox<S>>.fromOpaque(slotObject(of: S.self).toOpaque())
            box._withUnsafeGuaranteedRef { $0.subscriber.receive(subscription: self) }
        }
    }

    /// Puts `subscriber` in the slot, laid out as `slotCall(for:)` expects; once, from the
    /// conduit's `init`.
    @inlinable
    final func store<S: Subscriber>(_ subscriber: S) {
        switch SlotLayout.of(S.self) {
        case .object:
            // `S` is a class (see `SlotLayout.of`): reinterpret the reference. `as AnyObject` would
            // go through the runtime's dynamic cast (a protocol-conformance lookup for bridging),
            // most of the cost of subscribing a `Sink`.
            let narrow = unsafeDowncast(self, to: NarrowConduit<S.Input, S.Failure>.self)
            narrow.slot = UInt(bitPattern: Unmanaged.passRetained(_unsafeReferenceCast(subscriber, to: AnyObject.self)).toOpaque())
        case .narrow, .wide:
            withSlot(of: S.self) { _ = $0.initializeMemory(as: S.self, repeating: subscriber, count: 1) }
        case .boxed:
            let narrow = unsafeDowncast(self, to: NarrowConduit<S.Input, S.Failure>.self)
            narrow.slot = UInt(bitPattern: Unmanaged.passRetained(SubscriberBox(subscriber)).toOpaque())
        }
    }

    /// Releases the subscriber, then the subject (whose deinit may call back in); only the thread
    /// that may call the subscriber does this, without the lock.
    @usableFromInline
    final func dropSubscriber() {
        guard holdsSubscriber else { return }
        holdsSubscriber = false
        _ = call(self, .destroy, nil)
        owner = nil
    }
}
