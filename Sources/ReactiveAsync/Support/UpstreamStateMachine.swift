/// What a combining operator's state machine asks its storage to do once the lock is released.
///
/// `Downstream` is the consumer's suspended `next()`, `Upstream` a base's task waiting for demand;
/// both are generic so the state machines can be driven in tests with plain tokens, without threads.
struct UpstreamEffects<Downstream, Upstream, Output> {
    /// Resume the consumer with this result.
    var downstream: (Downstream, Result<Output?, any Error>)?
    /// Let these bases call `next()` once more.
    var resumeUpstreams: InlineList<Upstream> = []
    /// Tell these bases to stop iterating.
    var stopUpstreams: InlineList<Upstream> = []
    /// Start the task that iterates the bases.
    var startTask = false
    /// Cancel the task that iterates the bases.
    var cancelTask = false

    /// Nothing to do.
    static var none: Self { Self() }

    /// Resumes the consumer with `result`.
    static func resume(_ downstream: Downstream, _ result: Result<Output?, any Error>) -> Self {
        Self(downstream: (downstream, result))
    }
}

/// The pure part of `merge`, `zip` and `combineLatest`: events in, effects out.
///
/// Every base is iterated by a task of its own that, before each `next()`, waits for the state
/// machine's permission (`upstreamWaiting`). The consumer's `next()` arrives as `next(_:)`.
protocol UpstreamStateMachine: Sendable {
    /// What one base delivers.
    associatedtype Input
    /// What the consumer receives.
    associatedtype Output
    /// The consumer's suspended `next()`.
    associatedtype Downstream
    /// A base's task waiting for permission to call `next()`.
    associatedtype Upstream

    /// The consumer asks for the next element.
    mutating func next(_ downstream: Downstream) -> UpstreamEffects<Downstream, Upstream, Output>
    /// Base `index` is ready to call `next()` and waits for permission.
    mutating func upstreamWaiting(_ index: Int, _ upstream: Upstream) -> UpstreamEffects<Downstream, Upstream, Output>
    /// Base `index` produced `value`.
    mutating func produced(_ index: Int, _ value: Input) -> UpstreamEffects<Downstream, Upstream, Output>
    /// Base `index` returned `nil`.
    mutating func upstreamFinished(_ index: Int) -> UpstreamEffects<Downstream, Upstream, Output>
    /// Base `index` threw `error`.
    mutating func upstreamThrew(_ index: Int, _ error: any Error) -> UpstreamEffects<Downstream, Upstream, Output>
    /// The consumer's task was cancelled or its iterator was dropped.
    mutating func cancelled() -> UpstreamEffects<Downstream, Upstream, Output>
}
