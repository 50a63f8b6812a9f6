import Dispatch
import Foundation

extension Timer {
    /// A connectable publisher of the current date, every `interval` seconds.
    ///
    /// Nothing happens until you call `connect()` or use `autoconnect()`. A tick that finds a
    /// subscriber with no demand is dropped for that subscriber, as in Combine.
    ///
    /// On Linux the run loop is often not serviced (a test, a command-line tool blocked in
    /// `readline`), so the timer runs on a dispatch timer source, not on `runLoop`: `runLoop`,
    /// `mode` and `options` are accepted and stored for source compatibility only, and dates are
    /// delivered on a private serial queue.
    ///
    /// ```swift
    /// let ticks = Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { print($0) }   // a date a second
    /// ```
    /// - Parameters:
    ///   - interval: Seconds between ticks (0 or less becomes 0.1 ms, as with `Timer`).
    ///   - tolerance: Allowed lateness of each tick; `nil` for none. Kept as the publisher's
    ///     `tolerance` (Combine drops it, a known bug not copied: see "Coming from Combine").
    ///   - runLoop: Accepted for source compatibility (see above).
    ///   - mode: Accepted for source compatibility.
    ///   - options: Accepted for source compatibility.
    /// - Returns: A `Timer.TimerPublisher`.
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// The connectable publisher `Timer.publish(every:tolerance:on:in:options:)` returns.
    ///
    /// Each `connect()` starts a timer of its own (as Combine's does) that sends `Date()` to every
    /// current subscriber; cancelling the connection stops that timer. Subscribers never receive
    /// a completion: the timer does not finish.
    ///
    /// ```swift
    /// let timer = Timer.TimerPublisher(interval: 0.5, runLoop: .main, mode: .default)
    /// let a = timer.sink { print("a", $0) }
    /// let connection = timer.connect()
    /// ```
    public final class TimerPublisher: ConnectablePublisher {
        public typealias Output = Date
        public typealias Failure = Never

        /// Seconds between ticks.
        public final let interval: TimeInterval
        /// Allowed lateness of each tick.
        public final let tolerance: TimeInterval?
        /// The run loop given at creation (stored only; see `Timer.publish`).
        public final let runLoop: RunLoop
        /// The run loop mode given at creation (stored only).
        public final let mode: RunLoop.Mode
        /// The options given at creation (stored only).
        public final let options: RunLoop.SchedulerOptions?

        private let subject = PassthroughSubject<Date, Never>()

        /// Creates a timer publisher; see `Timer.publish(every:tolerance:on:in:options:)`.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        /// Starts a timer that ticks every `interval` until the returned connection is cancelled.
        ///
        /// As in Combine, the connection is not an `AnyCancellable`: dropping it does not stop
        /// the timer (the timer keeps it alive, as a run loop keeps a `Timer`); only `cancel()` does.
        /// - Returns: The connection; cancelling it stops the timer.
        public func connect() -> any Cancellable {
            let period = interval > 0 ? interval : 0.0001
            let nanoseconds = Int(Swift.min(period * 1e9, Double(Int.max / 2)))
            let leeway = Int(Swift.min(Swift.max(tolerance ?? 0, 0) * 1e9, Double(Int.max / 2)))
            let queue = DispatchQueue(label: "Reactive.Timer.TimerPublisher")
            let source = DispatchSource.makeTimerSource(queue: queue)
            let connection = TimerConnection(source: source)
            let subject = subject
            // The handler keeps the connection (and so the source) alive until `cancel()`, after
            // which Dispatch releases the handler and the cycle with it.
            source.setEventHandler {
                withExtendedLifetime(connection) { subject.send(Date()) }
            }
            source.schedule(
                deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                leeway: .nanoseconds(leeway))
            source.resume()
            return connection
        }
    }
}

/// A running timer publisher's connection: cancelling it cancels the dispatch timer (idempotent,
/// as `DispatchSource.cancel()` is).
private final class TimerConnection: Cancellable, @unchecked Sendable {
    // @unchecked: a dispatch source is thread-safe (libdispatch); it is only never annotated so.
    let source: any DispatchSourceTimer

    init(source: any DispatchSourceTimer) { self.source = source }

    func cancel() { source.cancel() }
}
