import Synchronization

// Subscriptions keep generic, non-Sendable state (the downstream subscriber, user closures).
// `Mutex<State>` can only hold state that can be *sent* into it, which a generic subscriber cannot,
// so such classes guard their stored properties with a `Mutex<Void>` and read or write them only
// inside `guarded`. Never call out to a subscriber or user code inside `guarded`.
extension Mutex where Value == Void {
    /// Runs `body` with the lock held and returns its result.
    @inlinable
    @inline(__always)
    package func guarded<R>(_ body: () throws -> R) rethrows -> R {
        var result: R? = nil
        try withLock { _ in result = try body() }
        return result.unsafelyUnwrapped
    }
}
