#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock that owns the state it protects, with `Synchronization.Mutex`'s API.
///
/// Why not `Mutex` itself: on Linux, ThreadSanitizer cannot see `Synchronization.Mutex` (its
/// futex-based lock lives in an uninstrumented library), so every access it protects is reported
/// as a race — verified here with four threads incrementing a counter under a `Mutex`: the total
/// is right and TSan still reports it. The stress suite must run clean under TSan, so the core
/// locks with a `pthread_mutex_t`, which TSan intercepts. The second reason: subscriptions keep
/// generic, non-Sendable state (the downstream subscriber, user closures), which `Lock<State>`
/// only accepts as a `sending` value; `Lock` takes it as is, and the rule that makes it safe is
/// the one every subscription follows: touch the state only inside `withLock`, and never call
/// out to a subscriber or user closure while holding it.
///
/// ```swift
/// let counter = Lock(0)
/// counter.withLock { $0 += 1 }
/// ```
public struct Lock<Value>: @unchecked Sendable {
    // @unchecked: the value is only reached inside `withLock`, under the mutex stored beside it.
    @usableFromInline let storage: LockStorage<Value>

    /// Creates a lock protecting `value`.
    @inlinable
    public init(_ value: Value) {
        storage = LockStorage.make(value)
    }

    /// Runs `body` with exclusive access to the protected value and returns its result.
    @inlinable
    @inline(__always)
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try storage.withLock(body)
    }
}

extension Lock where Value == Void {
    /// Creates a lock that guards state kept outside it (in the owner's stored properties).
    @inlinable
    public init() { self.init(()) }

    /// Runs `body` with the lock held and returns its result.
    ///
    /// For classes that keep their state in stored properties guarded by this lock.
    @inlinable
    @inline(__always)
    public func guarded<R>(_ body: () throws -> R) rethrows -> R {
        try storage.withLock { _ in try body() }
    }
}

/// The value and its `pthread_mutex_t` in one allocation: the mutex is the buffer's single
/// tail-allocated element, so its address never moves (a pthread mutex must not be moved).
@usableFromInline
final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    @inlinable
    static func make(_ value: Value) -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in value }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return unsafeDowncast(buffer, to: LockStorage.self)
    }

    @inlinable
    @inline(__always)
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    deinit {
        // ManagedBuffer destroys the header (the value) itself; the elements are ours.
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}
