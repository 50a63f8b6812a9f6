extension Publisher {
    /// Calls closures when events pass through, without changing them.
    ///
    /// Each closure runs once per event, before the event is passed on. `receiveCancel` runs once
    /// when the subscription is cancelled and never after a completion (C40).
    ///
    /// ```swift
    /// let stream = subject.handleEvents(
    ///     receiveSubscription: { _ in resource.start() },
    ///     receiveCancel: { resource.stop() }
    /// )
    /// ```
    /// - Parameters:
    ///   - receiveSubscription: Called when upstream sends its subscription.
    ///   - receiveOutput: Called with each value.
    ///   - receiveCompletion: Called with the completion.
    ///   - receiveCancel: Called when downstream cancels.
    ///   - receiveRequest: Called with each demand downstream requests (or returns from `receive`).
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// The publisher `handleEvents(…)` returns.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are observed.
        public let upstream: Upstream
        /// Called when upstream sends its subscription.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Called with each value.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// Called with the completion.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// Called when downstream cancels.
        public var receiveCancel: (() -> Void)?
        /// Called with each demand.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Upstream.Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let hooks = EventHooks<Output, Failure>(
                receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
                receiveRequest: receiveRequest.map { hook in { demand, _ in hook(demand) } })
            upstream.receive(subscriber: EventSubscription(hooks: hooks, downstream: subscriber, name: "HandleEvents"))
        }
    }
}
