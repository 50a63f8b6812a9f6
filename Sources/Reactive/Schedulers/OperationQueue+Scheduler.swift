import Dispatch
import Foundation

extension OperationQueue: Scheduler {
    /// A point in time for an operation queue: a `Date`.
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
        /// let stride: OperationQueue.SchedulerTimeType.Stride = .milliseconds(30)
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

    /// Options for actions scheduled on an operation queue: none, as in Combine.
    public struct SchedulerOptions: Sendable {}

    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(0) }

    /// Adds `action` to this queue as an operation.
    ///
    /// ```swift
    /// let queue = OperationQueue()
    /// queue.schedule { print("on the queue") }
    /// ```
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        addOperation(ScheduledAction(action).sendable)
    }

    /// Adds `action` to this queue at or after `date`; a dispatch timer does the waiting, so no
    /// run loop needs to be serviced.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let queue = OperationQueueHandle(self)
        let action = ScheduledAction(action).sendable
        DispatchQueue.global().asyncAfter(deadline: Self.deadline(for: date)) { queue.queue.addOperation(action) }
    }

    /// Adds `action` to this queue at `date` and then every `interval`, from a dispatch timer,
    /// until the cancellable is cancelled or deinitialised. An operation already added when it
    /// is cancelled still runs.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let queue = OperationQueueHandle(self)
        let action = ScheduledAction(action).sendable
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { queue.queue.addOperation(action) }
        timer.schedule(
            deadline: Self.deadline(for: date), repeating: .nanoseconds(Swift.max(Int(_saturatingNanoseconds(seconds: interval.magnitude)), 1)),
            leeway: .nanoseconds(Swift.max(Int(_saturatingNanoseconds(seconds: tolerance.magnitude)), 0)))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }

    private static func deadline(for date: SchedulerTimeType) -> DispatchTime {
        let seconds = Swift.max(date.date.timeIntervalSinceNow, 0)
        return .now() + .nanoseconds(Int(_saturatingNanoseconds(seconds: seconds)))
    }
}

/// Carries an `OperationQueue` into a dispatch closure.
private struct OperationQueueHandle: @unchecked Sendable {
    // @unchecked: `OperationQueue` is thread-safe (Foundation documents it so) but not annotated here.
    let queue: OperationQueue

    init(_ queue: OperationQueue) { self.queue = queue }
}
