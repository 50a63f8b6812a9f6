/// A stride that can be built from seconds, milliseconds, microseconds and nanoseconds.
///
/// Every scheduler's `SchedulerTimeType.Stride` conforms, so operators read the same on any
/// scheduler: `.delay(for: .milliseconds(30), scheduler: DispatchQueue.global())`.
public protocol SchedulerTimeIntervalConvertible {
    /// A stride of `s` seconds.
    static func seconds(_ s: Int) -> Self
    /// A stride of `s` seconds (fractions allowed).
    static func seconds(_ s: Double) -> Self
    /// A stride of `ms` milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// A stride of `us` microseconds.
    static func microseconds(_ us: Int) -> Self
    /// A stride of `ns` nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}

/// Something that runs actions now or at a time: Combine's `Scheduler`.
///
/// Actions are plain `() -> Void` closures, as in Combine, so a custom scheduler or a scheduler
/// wrapper written for Combine compiles unchanged. A scheduler that runs an action on another
/// thread carries it there itself (the library's schedulers use a box, `ScheduledAction`); what the
/// action captures is the caller's to guard, as in Combine. Schedulers make no promise that
/// actions run one at a time (a concurrent `DispatchQueue` does not); operators that need serial
/// delivery serialise it themselves.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { print("one second") }
/// scheduler.advance(by: .seconds(1))   // prints "one second"
/// ```
public protocol Scheduler<SchedulerTimeType> {
    /// How this scheduler measures time.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible
    /// Options that fine-tune how actions run (`Never` when there are none).
    associatedtype SchedulerOptions

    /// This scheduler's idea of the current time.
    var now: SchedulerTimeType { get }
    /// The smallest tolerance this scheduler honours.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as possible.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

    /// Runs `action` once, at or after `date`.
    func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    )

    /// Runs `action` at `date` and then every `interval` until the returned cancellable is
    /// cancelled (or, where it is an `AnyCancellable`, deinitialised: keep it).
    func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable
}

extension Scheduler {
    /// Runs `action` as soon as possible, with no options.
    @inlinable
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` once, at or after `date`, with the minimum tolerance.
    @inlinable
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Runs `action` once, at or after `date`, within `tolerance`.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` at `date` and then every `interval`, with the minimum tolerance.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }

    /// Runs `action` at `date` and then every `interval`, within `tolerance`.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }
}
