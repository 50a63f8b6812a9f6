/// The one box that carries a non-`Sendable` value (a value, a subscriber, a subscription) into a
/// scheduler action.
///
/// Scheduler actions are `@Sendable`, but values and subscribers are generic and usually not.
/// Moving them is still safe: the reactive-streams rules serialise every signal to a subscriber,
/// so the value moves to the scheduler's thread and is used there; it is never shared by two
/// threads at once. Operators that deliver on a scheduler keep their own state under a lock.
///
/// ```swift
/// let box = SchedulerHandoff(value)
/// scheduler.schedule { _ = downstream.value.receive(box.value) }
/// ```
@usableFromInline
struct SchedulerHandoff<Value>: @unchecked Sendable {
    // @unchecked: the reactive-streams rules serialise every signal, so the value moves to the scheduler's thread; it is not shared.
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) { self.value = value }
}

/// Wraps a closure over an operator's (non-`Sendable`) state as a scheduler action, through the
/// one handoff box. Built outside any generic context, so the action captures no generic
/// metatypes.
@usableFromInline
func schedulerAction(_ body: @escaping () -> Void) -> @Sendable () -> Void {
    let handoff = SchedulerHandoff(body)
    return { handoff.value() }
}
