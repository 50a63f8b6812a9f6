// Where a conduit keeps its subscriber, and the lifetime rule that lets it call the subscriber
// without retaining it.
//
// The subscriber lives in the conduit's `slot` and is called through closures that capture
// nothing but its type, made in `SlotCalls.init` where the type is known. An object (a `Sink`) is
// kept as a reference retained by hand and called without a retain; a struct (an operator's
// subscriber around a sink) is kept in place when it fits in four words, so subscribing allocates
// nothing more, and a larger one in a `SubscriberBox`. Only the thread that may call the
// subscriber (the conduit's deliverer, or whoever raised `wip` from 0 for good) releases it, so a
// value in flight never meets a released subscriber.

/// Room for a subscriber inside its conduit: four words, enough for an operator's subscriber
/// around a sink (a downstream reference, a closure and an identifier).
@usableFromInline
typealias SubscriberSlot = (UInt, UInt, UInt, UInt)

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
    /// A struct of up to four words, in place.
    case inline
    /// A larger struct, in a `SubscriberBox` referenced from the first word.
    case boxed

    @inlinable
    static func of<S>(_: S.Type) -> SlotLayout {
        if S.self is AnyObject.Type { return .object }
        if MemoryLayout<S>.size <= MemoryLayout<SubscriberSlot>.size,
            MemoryLayout<S>.alignment <= MemoryLayout<SubscriberSlot>.alignment
        {
            return .inline
        }
        return .boxed
    }
}

/// The calls a conduit makes on the subscriber in its slot: closures made where the subscriber's
/// type is known, so the conduit itself needs only `Output` and `Failure`.
@usableFromInline
struct SlotCalls<Output, Failure: Error> {
    @usableFromInline let receiveValue: (SubjectConduitBase, Output) -> Subscribers.Demand
    @usableFromInline let receiveCompletion: (SubjectConduitBase, Subscribers.Completion<Failure>) -> Void
    /// Releases what the slot holds.
    @usableFromInline let destroy: (SubjectConduitBase) -> Void

    @inlinable
    init<S: Subscriber>(for _: S.Type) where S.Input == Output, S.Failure == Failure {
        switch SlotLayout.of(S.self) {
        case .object:
            // `_unsafeReferenceCast` keeps the reference borrowed (a generic `unsafeBitCast` would
            // retain it for the call).
            receiveValue = { conduit, value in
                conduit.slotObject._withUnsafeGuaranteedRef { _unsafeReferenceCast($0, to: S.self).receive(value) }
            }
            receiveCompletion = { conduit, completion in
                conduit.slotObject._withUnsafeGuaranteedRef { _unsafeReferenceCast($0, to: S.self).receive(completion: completion) }
            }
            destroy = { $0.slotObject.release() }
        case .inline:
            receiveValue = { conduit, value in
                conduit.withSlot { $0.assumingMemoryBound(to: S.self).pointee.receive(value) }
            }
            receiveCompletion = { conduit, completion in
                conduit.withSlot { $0.assumingMemoryBound(to: S.self).pointee.receive(completion: completion) }
            }
            destroy = { conduit in
                conduit.withSlot { _ = $0.assumingMemoryBound(to: S.self).deinitialize(count: 1) }
            }
        case .boxed:
            typealias Box = SubscriberBox<S>
            receiveValue = { conduit, value in
                Unmanaged<Box>.fromOpaque(conduit.slotObject.toOpaque())._withUnsafeGuaranteedRef { $0.subscriber.receive(value) }
            }
            receiveCompletion = { conduit, completion in
                Unmanaged<Box>.fromOpaque(conduit.slotObject.toOpaque())._withUnsafeGuaranteedRef {
                    $0.subscriber.receive(completion: completion)
                }
            }
            destroy = { $0.slotObject.release() }
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

    /// Puts `subscriber` in the slot, laid out as `SlotCalls` expects; once, from the conduit's `init`.
    @inlinable
    final func store<S>(_ subscriber: S) {
        switch SlotLayout.of(S.self) {
        case .object:
            slot.0 = UInt(bitPattern: Unmanaged.passRetained(subscriber as AnyObject).toOpaque())
        case .inline:
            withSlot { _ = $0.initializeMemory(as: S.self, repeating: subscriber, count: 1) }
        case .boxed:
            slot.0 = UInt(bitPattern: Unmanaged.passRetained(SubscriberBox(subscriber)).toOpaque())
        }
    }

    /// Releases the subscriber; only the thread that may call it does this, without the lock.
    @usableFromInline
    final func dropSubscriber() {
        guard holdsSubscriber else { return }
        holdsSubscriber = false
        destroySubscriber(self)
    }
}
