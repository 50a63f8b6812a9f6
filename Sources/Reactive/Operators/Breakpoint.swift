#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Publisher {
    /// Raises `SIGTRAP` (stopping in an attached debugger) when a closure returns `true` for an event.
    ///
    /// Every signal passes through unchanged; the closures only decide whether to stop. Without a
    /// debugger, `SIGTRAP` ends the process, so keep breakpoints out of shipped code.
    ///
    /// ```swift
    /// publisher
    ///     .breakpoint(receiveOutput: { $0 > 10 })   // stop on a value above 10
    ///     .sink { print($0) }
    /// ```
    /// - Parameters:
    ///   - receiveSubscription: Decides on the subscription.
    ///   - receiveOutput: Decides on each value.
    ///   - receiveCompletion: Decides on the completion.
    /// - Returns: A publisher that raises `SIGTRAP` when a closure returns `true`.
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises `SIGTRAP` when this publisher fails.
    ///
    /// ```swift
    /// fetch.breakpointOnError().sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    /// ```
    /// - Returns: A publisher that raises `SIGTRAP` on a `.failure`.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}

extension Publishers {
    /// The publisher `breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)` and
    /// `breakpointOnError()` return.
    ///
    /// The closures run before the event is passed on, on the thread that delivers it, with no
    /// lock held (it is built on `handleEvents`).
    ///
    /// ```swift
    /// let checked = Publishers.Breakpoint(upstream: source, receiveOutput: { $0 < 0 })
    /// ```
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are checked.
        public let upstream: Upstream
        /// Decides on the subscription.
        public let receiveSubscription: ((any Subscription) -> Bool)?
        /// Decides on each value.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// Decides on the completion.
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        /// Creates a breakpoint publisher; a `nil` closure never stops.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.handleEvents(
                receiveSubscription: receiveSubscription.map { decide in { if decide($0) { trap() } } },
                receiveOutput: receiveOutput.map { decide in { if decide($0) { trap() } } },
                receiveCompletion: receiveCompletion.map { decide in { if decide($0) { trap() } } }
            )
            .subscribe(subscriber)
        }
    }
}

/// Stops in the debugger (or ends the process, when none is attached).
private func trap() {
    raise(SIGTRAP)
}
