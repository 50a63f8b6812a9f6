#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock that owns the state it protects, with `Synchronization.Mutex`'s `withLock` shape.
///
/// Why not `Mutex`: on Linux ThreadSanitizer cannot see `Synchronization.Mutex` (its futex lock
/// lives in an uninstrumented library) and reports every access it protects as a race, while
/// this module's stress tests must run clean under TSan. A `pthread` mutex is intercepted by
/// TSan. `Reactive`'s faster `Lock` is not reachable from here: `ReactiveAsync` depends on the
/// toolchain only. Never resume a continuation or call user code inside `withLock`.
///
/// ```swift
/// let count = StateLock(0)
/// count.withLock { $0 += 1 }
/// ```
final class StateLock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only reached inside `withLock`, with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Unchecked: every access is inside `withLock` with `mutex` held, so the runtime's dynamic
    // exclusivity check (3% of `async-debounce` in callgrind) can never fire.
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// - Parameter body: Reads or changes the state; must not call out.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
