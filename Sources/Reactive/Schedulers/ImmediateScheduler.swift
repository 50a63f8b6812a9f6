/// A scheduler that runs every action at once, on the calling thread.
///
/// Scheduling "after" a time also runs at once; a repeating action runs once. Useful in tests and
/// as the default where an operator needs a scheduler but no hop.
///
/// ```swift
/// Just(1).receive(on: ImmediateScheduler.shared).sink { print($0) }   // 1, synchronously
/// ```
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The immediate scheduler's time: time never passes, every instant is "now".
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// A distance on the immediate scheduler (kept so operators can compute with it);
        /// `Codable` as its magnitude, as in Combine.
        public struct Stride: _NanosecondStride, Codable {
            public typealias Magnitude = Int
            /// The stride in nanoseconds.
            public var magnitude: Int
            public init(_nanoseconds: Int64) { magnitude = Int(_nanoseconds) }
            public var _nanoseconds: Int64 { Int64(magnitude) }
        }

        public func distance(to other: SchedulerTimeType) -> Stride { .zero }
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    public typealias SchedulerOptions = Never

    /// The one immediate scheduler.
    public static let shared = ImmediateScheduler()

    public var now: SchedulerTimeType { SchedulerTimeType() }
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    public func schedule(options: Never?, _ action: @escaping () -> Void) { action() }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) { action() }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}
