import Dispatch

extension DispatchQueue: Scheduler {
    /// A point in time on a dispatch queue: a `DispatchTime`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time this value stands for.
        public var dispatchTime: DispatchTime

        /// Wraps a dispatch time.
        public init(_ time: DispatchTime) { dispatchTime = time }

        /// The nanoseconds from this time to `other`, saturating at `Int.max` (Combine wraps the
        /// distance to `distantFuture` round to a negative number; see "Coming from Combine").
        public func distance(to other: SchedulerTimeType) -> Stride {
            let a = dispatchTime.uptimeNanoseconds, b = other.dispatchTime.uptimeNanoseconds
            let magnitude = b >= a ? Int64(clamping: b - a) : -Int64(clamping: a - b)
            return Stride(_nanoseconds: magnitude)
        }

        /// This time moved by `n`, as Dispatch adds an interval to a time (and as Combine does):
        /// past the last representable time it is `distantFuture`, before the first it is 1 ns
        /// (0 would mean "now" to Dispatch), and `distantFuture` stays where it is.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(dispatchTime + .nanoseconds(n.magnitude))
        }

        /// Decodes the time from its uptime in nanoseconds (`Codable`, as in Combine).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
        }

        /// Encodes the time as its uptime in nanoseconds.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.dispatchTime == rhs.dispatchTime }
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.dispatchTime < rhs.dispatchTime }
        public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }

        /// A distance between two dispatch times, in nanoseconds; literals are seconds.
        ///
        /// ```swift
        /// let stride: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(30)
        /// ```
        public struct Stride: _NanosecondStride, Codable {
            public typealias Magnitude = Int
            /// The stride in nanoseconds (Combine's name).
            public var magnitude: Int

            public init(_nanoseconds: Int64) { magnitude = Int(_nanoseconds) }
            public var _nanoseconds: Int64 { Int64(magnitude) }

            /// A stride of `timeInterval` seconds.
            public init(_ timeInterval: Double) { self = .seconds(timeInterval) }

            /// A stride of `source` nanoseconds (the stride's magnitude, as in Combine), if it fits.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let nanoseconds = Int(exactly: source) else { return nil }
                magnitude = nanoseconds
            }

            /// Converts a `DispatchTimeInterval` (`.never` becomes the largest stride).
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): self = .seconds(s)
                case .milliseconds(let ms): self = .milliseconds(ms)
                case .microseconds(let us): self = .microseconds(us)
                case .nanoseconds(let ns): self = .nanoseconds(ns)
                case .never: self.init(_nanoseconds: .max)
                @unknown default: self.init(_nanoseconds: .max)
                }
            }

            /// The stride as a `DispatchTimeInterval`.
            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }
        }
    }

    /// Options for actions scheduled on a dispatch queue.
    public struct SchedulerOptions {
        /// The quality of service to run the action with.
        public var qos: DispatchQoS
        /// Flags for the work item.
        public var flags: DispatchWorkItemFlags
        /// A group to enter while the action is pending (immediate scheduling only).
        public var group: DispatchGroup?

        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    public var now: SchedulerTimeType { SchedulerTimeType(DispatchTime.now()) }
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = ScheduledAction(action).sendable
        async(group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? [], execute: action)
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = ScheduledAction(action).sendable
        asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? [], execute: action)
    }

    /// Runs `action` at `date` and then every `interval` on a dispatch timer source, which keeps
    /// its own schedule (ticks do not drift). The timer stops when the cancellable is cancelled
    /// or deinitialised.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(
            qos: options?.qos ?? .unspecified, flags: options?.flags ?? [], handler: ScheduledAction(action).sendable)
        let repeating = Swift.max(interval.magnitude, 1)
        timer.schedule(
            deadline: date.dispatchTime, repeating: .nanoseconds(repeating),
            leeway: .nanoseconds(Swift.max(tolerance.magnitude, 0)))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
