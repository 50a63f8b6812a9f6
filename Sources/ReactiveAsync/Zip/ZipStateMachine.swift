/// The pure state of `zip`: one slot per base, filled once per consumer demand.
///
/// Each `next()` of the consumer lets every base whose slot is empty pull one element; when all
/// slots are full the tuple goes out and the slots empty. A base that finishes ends the sequence
/// at once and cancels the others, dropping what they produced for the unfinished tuple (the
/// package's Zip guide: "the iteration is immediately considered unsatisfiable").
struct ZipStateMachine<Downstream: Sendable, Upstream: Sendable>: UpstreamStateMachine {
    typealias Input = any Sendable
    typealias Output = [any Sendable]
    typealias Effects = UpstreamEffects<Downstream, Upstream, Output>

    enum State {
        case initial
        case zipping
        case failed(any Error)
        case finished
    }

    private(set) var state = State.initial
    private(set) var slots: [(any Sendable)?]
    /// How many slots hold an element: counted, so a `produced` does not scan or copy the slots.
    private var filled = 0
    private var waiting: [Upstream?]
    private var downstream: Downstream?

    init(baseCount: Int) {
        slots = Array(repeating: nil, count: baseCount)
        waiting = Array(repeating: nil, count: baseCount)
    }

    mutating func next(_ downstream: Downstream) -> Effects {
        switch state {
        case .initial:
            state = .zipping
            self.downstream = downstream
            return Effects(startTask: true)
        case .zipping:
            self.downstream = downstream
            var effects = Effects.none
            for index in waiting.indices where slots[index] == nil {
                if let upstream = waiting[index] { effects.resumeUpstreams.append(upstream) }
                waiting[index] = nil
            }
            return effects
        case .failed(let error):
            state = .finished
            return .resume(downstream, .failure(error))
        case .finished:
            return .resume(downstream, .success(nil))
        }
    }

    mutating func upstreamWaiting(_ index: Int, _ upstream: Upstream) -> Effects {
        guard case .zipping = state else { return Effects(stopUpstreams: [upstream]) }
        if downstream != nil && slots[index] == nil { return Effects(resumeUpstreams: [upstream]) }
        waiting[index] = upstream
        return .none
    }

    mutating func produced(_ index: Int, _ value: any Sendable) -> Effects {
        guard case .zipping = state else { return .none }
        if slots[index] == nil { filled += 1 }
        slots[index] = value
        guard filled == slots.count, let downstream else { return .none }
        // The one allocation per tuple: the tuple itself. The slots are emptied in place.
        var values: [any Sendable] = []
        values.reserveCapacity(slots.count)
        for index in slots.indices {
            if let value = slots[index] { values.append(value) }
            slots[index] = nil
        }
        filled = 0
        self.downstream = nil
        return .resume(downstream, .success(values))
    }

    mutating func upstreamFinished(_ index: Int) -> Effects {
        guard case .zipping = state else { return .none }
        return finish(.success(nil))
    }

    mutating func upstreamThrew(_ index: Int, _ error: any Error) -> Effects {
        guard case .zipping = state else { return .none }
        if downstream == nil {
            var effects = finish(.success(nil))
            state = .failed(error)
            effects.downstream = nil
            return effects
        }
        return finish(.failure(error))
    }

    mutating func cancelled() -> Effects {
        switch state {
        case .initial, .failed:
            state = .finished
            return .none
        case .zipping:
            return finish(.success(nil))
        case .finished:
            return .none
        }
    }

    private mutating func finish(_ result: Result<Output?, any Error>) -> Effects {
        state = .finished
        slots = Array(repeating: nil, count: slots.count)
        filled = 0
        var effects = Effects(cancelTask: true)
        for index in waiting.indices {
            if let upstream = waiting[index] { effects.stopUpstreams.append(upstream) }
            waiting[index] = nil
        }
        if let downstream {
            effects.downstream = (downstream, result)
            self.downstream = nil
        }
        return effects
    }
}
