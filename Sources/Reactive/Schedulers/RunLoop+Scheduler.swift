import Foundation

extension RunLoop: Scheduler {
    /// A point in time on a run loop: a `Date`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date this value stands for.
        public var date: Date

        /// Wraps a date.
        public init(_ date: Date) { self.date = date }

        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSince(date))
        }

        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.magnitude))
        }

        /// A distance between two dates, in seconds; literals are seconds.
        ///
        /// ```swift
        /// let stride: RunLoop.SchedulerTimeType.Stride = .milliseconds(30)
        /// ```
        public struct Stride: _TimeIntervalStride, Codable {
            public typealias Magnitude = TimeInterval
            /// The stride in seconds (Combine's name).
            public var magnitude: TimeInterval

            /// A stride of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
            /// The stride in seconds.
            public var timeInterval: TimeInterval { magnitude }
        }
    }

    /// Options for actions scheduled on a run loop: none, as in Combine.
    public struct SchedulerOptions: Sendable {}

    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(0) }

    /// Runs `action` on this run loop, in the default mode, as soon as it is serviced.
    ///
    /// Actions run only while something runs this run loop (`RunLoop.current.run(until:)` on
    /// its thread, or the main run loop); on Linux the main run loop is often not serviced.
    /// The action is a timer due now, which wakes a sleeping run loop (a `perform` block would
    /// wait for something else to wake it).
    ///
    /// ```swift
    /// loop.schedule { print("on the loop's thread") }
    /// ```
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = ScheduledAction(action).sendable
        add(Timer(fire: Date(), interval: 0, repeats: false) { _ in action() }, forMode: .default)
    }

    /// Runs `action` once on this run loop at or after `date` (see `schedule(options:_:)`).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = ScheduledAction(action).sendable
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action() }
        timer.tolerance = Swift.max(tolerance.magnitude, 0)
        add(timer, forMode: .default)
    }

    /// Runs `action` on this run loop at `date` and then every `interval`, on a repeating
    /// `Timer`, until the cancellable is cancelled or deinitialised.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let action = ScheduledAction(action).sendable
        let timer = Timer(fire: date.date, interval: Swift.max(interval.magnitude, 0.0001), repeats: true) { _ in
            action()
        }
        timer.tolerance = Swift.max(tolerance.magnitude, 0)
        add(timer, forMode: .default)
        let handle = RunLoopTimerHandle(timer)
        return AnyCancellable { handle.timer.invalidate() }
    }
}

/// Carries a `Timer` to the cancellable's closure.
private struct RunLoopTimerHandle: @unchecked Sendable {
    // @unchecked: `Timer` is not annotated; it is only invalidated, which CFRunLoop makes thread-safe.
    let timer: Timer

    init(_ timer: Timer) { self.timer = timer }
}
