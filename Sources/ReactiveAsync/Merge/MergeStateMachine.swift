/// The pure state of `merge`: which bases may pull, what is buffered, who waits.
///
/// While the consumer waits, every base that is ready pulls; an element that arrives while nobody
/// waits (a base lost the race) is buffered. After a failure the buffer is delivered first, then
/// the error (swift-async-algorithms' `MergeStateMachine.upstreamThrew` and `next()`, as read).
struct MergeStateMachine<Element: Sendable, Downstream: Sendable, Upstream: Sendable>: UpstreamStateMachine {
    typealias Input = Element
    typealias Output = Element
    typealias Effects = UpstreamEffects<Downstream, Upstream, Element>

    enum State {
        case initial
        case merging
        case failed(any Error)
        case finished
    }

    let baseCount: Int
    private(set) var state = State.initial
    private(set) var buffer: [Element] = []
    private var waiting: InlineList<Upstream> = []
    private var downstream: Downstream?
    private var finishedCount = 0

    init(baseCount: Int) {
        self.baseCount = baseCount
    }

    mutating func next(_ downstream: Downstream) -> Effects {
        switch state {
        case .initial:
            state = .merging
            self.downstream = downstream
            return Effects(startTask: true)
        case .merging:
            if !buffer.isEmpty { return .resume(downstream, .success(buffer.removeFirst())) }
            if finishedCount == baseCount {
                state = .finished
                return .resume(downstream, .success(nil))
            }
            self.downstream = downstream
            defer { waiting = [] }
            return Effects(resumeUpstreams: waiting)
        case .failed(let error):
            if !buffer.isEmpty { return .resume(downstream, .success(buffer.removeFirst())) }
            state = .finished
            return .resume(downstream, .failure(error))
        case .finished:
            return .resume(downstream, .success(nil))
        }
    }

    mutating func upstreamWaiting(_ index: Int, _ upstream: Upstream) -> Effects {
        guard case .merging = state else { return Effects(stopUpstreams: [upstream]) }
        if downstream != nil { return Effects(resumeUpstreams: [upstream]) }
        waiting.append(upstream)
        return .none
    }

    mutating func produced(_ index: Int, _ value: Element) -> Effects {
        guard case .merging = state else { return .none }
        if let downstream = takeDownstream() { return .resume(downstream, .success(value)) }
        buffer.append(value)
        return .none
    }

    mutating func upstreamFinished(_ index: Int) -> Effects {
        guard case .merging = state else { return .none }
        finishedCount += 1
        guard finishedCount == baseCount else { return .none }
        var effects = stopAll()
        if let downstream = takeDownstream() {
            state = .finished
            effects.downstream = (downstream, .success(nil))
        }
        return effects
    }

    mutating func upstreamThrew(_ index: Int, _ error: any Error) -> Effects {
        guard case .merging = state else { return .none }
        var effects = stopAll()
        if let downstream = takeDownstream() {
            state = .finished
            effects.downstream = (downstream, .failure(error))
        } else {
            state = .failed(error)
        }
        return effects
    }

    mutating func cancelled() -> Effects {
        switch state {
        case .initial, .failed:
            state = .finished
            return .none
        case .merging:
            state = .finished
            buffer = []
            var effects = stopAll()
            if let downstream = takeDownstream() { effects.downstream = (downstream, .success(nil)) }
            return effects
        case .finished:
            return .none
        }
    }

    private mutating func takeDownstream() -> Downstream? {
        defer { downstream = nil }
        return downstream
    }

    private mutating func stopAll() -> Effects {
        defer { waiting = [] }
        return Effects(stopUpstreams: waiting, cancelTask: true)
    }
}
