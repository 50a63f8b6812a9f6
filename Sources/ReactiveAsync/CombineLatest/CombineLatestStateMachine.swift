/// The pure state of `combineLatest`: the latest element of each base and the tuples not yet taken.
///
/// While the consumer waits, every base pulls; once each base has produced, every new element makes
/// a tuple of the latest ones. Tuples made while nobody waits are buffered in order. A base that
/// finishes before producing anything ends the sequence; otherwise it ends when all bases have
/// finished. An error is thrown at once, dropping buffered tuples (the package's CombineLatest
/// guide: "the thrown error is immediately thrown to the consuming iteration").
struct CombineLatestStateMachine<Downstream: Sendable, Upstream: Sendable>: UpstreamStateMachine {
    typealias Input = any Sendable
    typealias Output = [any Sendable]
    typealias Effects = UpstreamEffects<Downstream, Upstream, Output>

    enum State {
        case initial
        case combining
        case failed(any Error)
        case finished
    }

    private(set) var state = State.initial
    private(set) var latest: [(any Sendable)?]
    private(set) var buffer: [[any Sendable]] = []
    private var done: [Bool]
    private var waiting: InlineList<Upstream> = []
    private var downstream: Downstream?

    init(baseCount: Int) {
        latest = Array(repeating: nil, count: baseCount)
        done = Array(repeating: false, count: baseCount)
    }

    mutating func next(_ downstream: Downstream) -> Effects {
        switch state {
        case .initial:
            state = .combining
            self.downstream = downstream
            return Effects(startTask: true)
        case .combining:
            if !buffer.isEmpty { return .resume(downstream, .success(buffer.removeFirst())) }
            if !done.contains(false) {
                state = .finished
                return .resume(downstream, .success(nil))
            }
            self.downstream = downstream
            defer { waiting = [] }
            return Effects(resumeUpstreams: waiting)
        case .failed(let error):
            state = .finished
            return .resume(downstream, .failure(error))
        case .finished:
            return .resume(downstream, .success(nil))
        }
    }

    mutating func upstreamWaiting(_ index: Int, _ upstream: Upstream) -> Effects {
        guard case .combining = state else { return Effects(stopUpstreams: [upstream]) }
        if downstream != nil { return Effects(resumeUpstreams: [upstream]) }
        waiting.append(upstream)
        return .none
    }

    mutating func produced(_ index: Int, _ value: any Sendable) -> Effects {
        guard case .combining = state else { return .none }
        latest[index] = value
        let values = latest.compactMap { $0 }
        guard values.count == latest.count else { return .none }
        if let downstream {
            self.downstream = nil
            return .resume(downstream, .success(values))
        }
        buffer.append(values)
        return .none
    }

    mutating func upstreamFinished(_ index: Int) -> Effects {
        guard case .combining = state else { return .none }
        done[index] = true
        if latest[index] == nil { return finish(.success(nil)) }
        guard !done.contains(false) else { return .none }
        if downstream != nil { return finish(.success(nil)) }
        return Effects(cancelTask: true)
    }

    mutating func upstreamThrew(_ index: Int, _ error: any Error) -> Effects {
        guard case .combining = state else { return .none }
        let waited = downstream != nil
        var effects = finish(.failure(error))
        if !waited { state = .failed(error) }
        effects.downstream = waited ? effects.downstream : nil
        return effects
    }

    mutating func cancelled() -> Effects {
        switch state {
        case .initial, .failed:
            state = .finished
            return .none
        case .combining:
            return finish(.success(nil))
        case .finished:
            return .none
        }
    }

    private mutating func finish(_ result: Result<Output?, any Error>) -> Effects {
        state = .finished
        buffer = []
        var effects = Effects(stopUpstreams: waiting, cancelTask: true)
        waiting = []
        if let downstream {
            effects.downstream = (downstream, result)
            self.downstream = nil
        }
        return effects
    }
}
