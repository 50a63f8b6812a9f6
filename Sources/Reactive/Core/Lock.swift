import Synchronization
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
/// is right and TSan still reports it. The stress suite must run clean under TSan, so the lock is
/// built from atomics compiled into this module (which TSan instruments) and, for a thread that
/// must wait, a `pthread` mutex and condition variable (which TSan intercepts). The second
/// reason: subscriptions keep generic, non-Sendable state (the downstream subscriber, user
/// closures), which `Mutex<State>` only accepts as a `sending` value; `Lock` takes it as is, and
/// the rule that makes it safe is the one every subscription follows: touch the state only
/// inside `withLock`, and never call out to a subscriber or user closure while holding it.
///
/// Taking and releasing a free lock is one compare-and-swap and one exchange, inlined: about a
/// third of a `pthread_mutex_lock`/`unlock` pair, which matters on paths that lock per value (a
/// subject's `send`). A thread that finds it held spins briefly, then sleeps on one of a fixed
/// set of condition variables shared by all locks (chosen by the lock's address), so a lock costs
/// no more memory than its state word.
///
/// ```swift
/// let counter = Lock(0)
/// counter.withLock { $0 += 1 }
/// ```
@usableFromInline
package struct Lock<Value>: @unchecked Sendable {
    // @unchecked: the value is only reached inside `withLock`, with the lock held.
    @usableFromInline let storage: LockStorage<Value>

    /// Creates a lock protecting `value`.
    @inlinable
    package init(_ value: Value) {
        storage = LockStorage(value)
    }

    /// Runs `body` with exclusive access to the protected value and returns its result.
    @inlinable
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        storage.lock()
        defer { storage.unlock() }
        return try body(&storage.value)
    }
}

extension Lock where Value == Void {
    /// Creates a lock that guards state kept outside it (in the owner's stored properties).
    @inlinable
    package init() { self.init(()) }

    /// Runs `body` with the lock held and returns its result.
    ///
    /// For classes that keep their state in stored properties guarded by this lock.
    @inlinable
    @inline(__always)
    package func guarded<R>(_ body: () throws -> R) rethrows -> R {
        storage.lock()
        defer { storage.unlock() }
        return try body()
    }
}

/// The lock word and the value, in one object.
@usableFromInline
final class LockStorage<Value> {
    /// 0: free; 1: held; 2: held, and a thread may be waiting (the unlock must wake it).
    @usableFromInline let state = Atomic<UInt32>(0)
    /// Reached only between `lock()` and `unlock()`, so the runtime's exclusivity checks are off.
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }

    @inlinable
    @inline(__always)
    func lock() {
        if !state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            lockContended()
        }
    }

    @inlinable
    @inline(__always)
    func unlock() {
        if state.exchange(0, ordering: .releasing) == 2 {
            wakeWaiters()
        }
    }

    // Never inlined: a one-argument call keeps the inlined `lock()`/`unlock()` of a hot path (a
    // subject's `send`) as small as it was before `LockWord` shared the slow path.
    @usableFromInline
    @inline(never)
    func lockContended() { LockWord.waitAndLock(state, key: ObjectIdentifier(self)) }

    @usableFromInline
    @inline(never)
    func wakeWaiters() { LockWord.wake(key: ObjectIdentifier(self)) }
}

/// `Lock`'s lock word alone, kept inside the object whose stored properties it guards: an object
/// made per subscription then needs no second object for its lock. The owner passes its
/// `ObjectIdentifier` as the key that picks where a waiting thread sleeps.
///
/// ```swift
/// let lockWord = LockWord()
/// lockWord.guarded(ObjectIdentifier(self)) { count += 1 }
/// ```
@usableFromInline
struct LockWord: ~Copyable {
    /// 0: free; 1: held; 2: held, and a thread may be waiting (the unlock must wake it).
    @usableFromInline let state = Atomic<UInt32>(0)

    @inlinable init() {}

    /// Runs `body` with the lock held and returns its result. `key`: the owner's identity, the
    /// same on every call.
    @inlinable
    @inline(__always)
    func guarded<R>(_ key: ObjectIdentifier, _ body: () throws -> R) rethrows -> R {
        if !state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            LockWord.waitAndLock(state, key: key)
        }
        defer {
            if state.exchange(0, ordering: .releasing) == 2 { LockWord.wake(key: key) }
        }
        return try body()
    }

    /// Spins a little (the holder never calls out, so it usually lets go within nanoseconds),
    /// then marks the lock contended and sleeps until an unlock wakes it.
    @usableFromInline
    static func waitAndLock(_ state: borrowing Atomic<UInt32>, key: ObjectIdentifier) {
        for _ in 0..<64 {
            if state.load(ordering: .relaxed) == 0,
                state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
        }
        let lot = ParkingLot.shared.slot(for: key)
        pthread_mutex_lock(lot.mutex)
        // Taking it with state 2 is conservative: the unlock then wakes others, who look again.
        // An unlock between the exchange and the wait cannot be missed: it must take `lot.mutex`
        // to wake anyone, which this thread only lets go of inside `pthread_cond_wait`.
        while state.exchange(2, ordering: .acquiring) != 0 {
            pthread_cond_wait(lot.condition, lot.mutex)
        }
        pthread_mutex_unlock(lot.mutex)
    }

    /// Wakes the threads sleeping on `key`'s slot (an unlock that found the state 2).
    @usableFromInline
    static func wake(key: ObjectIdentifier) {
        let lot = ParkingLot.shared.slot(for: key)
        pthread_mutex_lock(lot.mutex)
        pthread_cond_broadcast(lot.condition)
        pthread_mutex_unlock(lot.mutex)
    }
}

/// Where threads wait for a held `Lock`: a fixed table of mutex and condition-variable pairs,
/// shared by all locks and picked by the lock's address. Waiters of different locks that share a
/// slot are all woken and each looks at its own lock again.
@usableFromInline
final class ParkingLot: Sendable {
    @usableFromInline static let shared = ParkingLot()

    @usableFromInline
    struct Slot: @unchecked Sendable {
        // @unchecked: the pthread objects live at fixed addresses for the life of the process
        // and are used only through the pthread API, which synchronises them.
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let condition: UnsafeMutablePointer<pthread_cond_t>
    }

    private static let count = 64
    private let slots: [Slot]

    private init() {
        slots = (0..<ParkingLot.count).map { _ in
            let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            condition.initialize(to: pthread_cond_t())
            pthread_cond_init(condition, nil)
            return Slot(mutex: mutex, condition: condition)
        }
    }

    @usableFromInline
    func slot(for lock: ObjectIdentifier) -> Slot {
        let address = UInt(bitPattern: lock)
        return slots[Int((address >> 4) % UInt(ParkingLot.count))]
    }
}
