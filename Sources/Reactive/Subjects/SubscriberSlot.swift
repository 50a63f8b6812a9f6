// Where a conduit keeps its subscriber, and the lifetime rule that lets it call the subscriber
// without retaining it.
//
// The subscriber lives in the conduit's `slot` and is called through one closure that captures
// nothing, made in `slotCall(for:)` where the type is known (one closure, not one per kind of
// call: each is two words in every conduit). An object (a `Sink`) is
// kept as a reference retained by hand and called without a retain; a struct (an operator's
// subscriber around a sink) is kept in place when it fits in seven words, so subscribing allocates
// nothing more, and a larger one in a `SubscriberBox`. Only the thread that may call the
// subscriber (the conduit's deliverer, or whoever raised `wip` from 0 for good) releases it, so a
// value in flight never meets a released subscriber.

/// Room for a subscriber inside its conduit: seven words, enough for two operators' subscribers
/// around a sink (`map.filter.sink`: a downstream reference, and a closure and an identifier per
/// operator), the common shape; a box for those would be a fourth object per subscription.
@usableFromInline
typealias SubscriberSlot = (UInt, UInt, UInt, UInt, UInt, UInt, UInt)

/// Holds a subscriber too large for a `SubscriberSlot`, as a `let`, so calling it needs no retain.
@usableFromInline
final class SubscriberBox<S> {
    @usableFromInline let subscriber: S
    @inlinable init(_ subscriber: S) { self.subscriber = subscriber }
}

/// How a subscriber of one type is laid out in a `SubscriberSlot`.
@usableFromInline
enum SlotLayout {
    /// A class instance: its reference, retained by hand, in the first word.
    case object
    /// A struct of up to seven words, in place.
    case inline
    /// A larger struct, in a `SubscriberBox` referenced from the first word.
    case boxed

    @inlinable
    static func of<S>(_: S.Type) -> SlotLayout {
        // A class instance is one strong reference: `store` reinterprets it as `AnyObject`
        // without a cast, which the size check keeps honest.
        if S.self is AnyObject.Type, MemoryLayout<S>.size == MemoryLayout<AnyObject>.size { return .object }
        if MemoryLayout<S>.size <= MemoryLayout<SubscriberSlot>.size,
            MemoryLayout<S>.alignment <= MemoryLayout<SubscriberSlot>.alignment
        {
            return .inline
        }
        return .boxed
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
                return conduit.slotObject._withUnsafeGuaranteedRef {
                    _unsafeReferenceCast($0, to: S.self).receive(argument.unsafelyUnwrapped.assumingMemoryBound(to: S.Input.self).pointee)
                }
            case .completion:
                conduit.slotObject._withUnsafeGuaranteedRef {
                    _unsafeReferenceCast($0, to: S.self).receive(completion: argument.unsafelyUnwrapped.assumingMemoryBound(to: Completion.self).pointee)
                }
            case .destroy:
                conduit.slotObject.release()
            }
            return .none
        }
    case .inline:
        return { conduit, operation, argument in
            conduit.withSlot { slot in
                let subscriber = slot.assumingMemoryBound(to: S.self)
                switch operation {
                case .value:
                    return subscriber.pointee.receive(argument.unsafelyUnwrapped.assumingMemoryBound(to: S.Input.self).pointee)
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
            let box = Unmanaged<Box>.fromOpaque(conduit.slotObject.toOpaque())
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

extension SubjectConduitBase {
    /// The object kept in the first word of `slot`.
    @inlinable
    final var slotObject: Unmanaged<AnyObject> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: slot.0).unsafelyUnwrapped)
    }

    /// Calls `body` with the address of `slot`.
    @inlinable
    final func withSlot<R>(_ body: (UnsafeMutableRawPointer) -> R) -> R {
        withUnsafeMutableBytes(of: &slot) { body($0.baseAddress.unsafelyUnwrapped) }
    }

    /// Puts `subscriber` in the slot, laid out as `slotCall(for:)` expects; once, from the conduit's `init`.
    @inlinable
    final func store<S>(_ subscriber: S) {
        switch SlotLayout.of(S.self) {
        case .object:
            // `S` is a class (see `SlotLayout.of`): reinterpret the reference. `as AnyObject` would
            // go through the runtime's dynamic cast (a protocol-conformance lookup for bridging),
            // most of the cost of subscribing a `Sink`.
            slot.0 = UInt(bitPattern: Unmanaged.passRetained(_unsafeReferenceCast(subscriber, to: AnyObject.self)).toOpaque())
        case .inline:
            withSlot { _ = $0.initializeMemory(as: S.self, repeating: subscriber, count: 1) }
        case .boxed:
            slot.0 = UInt(bitPattern: Unmanaged.passRetained(SubscriberBox(subscriber)).toOpaque())
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
