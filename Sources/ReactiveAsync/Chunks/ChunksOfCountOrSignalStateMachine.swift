/// The rules of `chunks(ofCount:or:)` and `chunked(by:)` with a signal, without threads.
///
/// Elements collect into a chunk; the chunk goes out when it reaches `count` or when the signal
/// fires while it is not empty (an empty chunk never goes out). The base is pulled only while a
/// `next()` waits and no finished chunk is waiting to be taken, as the package's merge-based
/// version pulls it; a signal while nobody waits closes a non-empty chunk for the next `next()`.
/// The base's finish sends the partial chunk, then the end; a failure (of the base or the signal)
/// drops the partial chunk. Generic over the continuations and the task so it can be tested with
/// plain values.
struct ChunksOfCountOrSignalStateMachine<Element, Downstream, Gate, Handle> {
    /// Chunks are arrays of elements here; the iterator copies each into the chunk type in the
    /// consumer's task, so a chunk type need not be Sendable.
    typealias Collected = [Element]

    private struct Running {
        var task: Handle?
        var downstream: Downstream?
        var gate: Gate?
        var chunk: Collected?
        /// A chunk that closed while nobody asked: the next `next()` takes it.
        var closed: Collected?
    }

    private enum State {
        case initial
        case running(Running)
        /// Over: chunks still to hand out, then a failure or the end.
        case draining(chunks: [Collected], failure: (any Error)?)
    }

    private var state = State.initial
    private let count: Int?

    init(count: Int?) { self.count = count }

    typealias NextAction = GatedNextAction<Gate, Collected>

    /// A `next()` arrives.
    mutating func next(_ downstream: Downstream) -> NextAction {
        switch state {
        case .initial:
            state = .running(Running(downstream: downstream))
            return .startTask
        case .running(var running):
            if let closed = running.closed {
                running.closed = nil
                state = .running(running)
                return .deliver(closed)
            }
            running.downstream = downstream
            let gate = running.gate
            running.gate = nil
            state = .running(running)
            return gate.map { .resumeGate($0) } ?? .suspend
        case .draining(var chunks, let failure):
            if !chunks.isEmpty {
                let chunk = chunks.removeFirst()
                state = .draining(chunks: chunks, failure: failure)
                return .deliver(chunk)
            }
            state = .draining(chunks: [], failure: nil)
            return failure.map { .fail($0) } ?? .deliver(nil)
        }
    }

    /// The task started; returns it back when the operator already ended (cancel it).
    mutating func taskStarted(_ task: Handle) -> Handle? {
        guard case .running(var running) = state else { return task }
        running.task = task
        state = .running(running)
        return nil
    }

    typealias WaitAction = GateAction

    /// The base loop is about to pull: it may while a `next()` waits and no closed chunk waits.
    mutating func baseWantsDemand(_ gate: Gate) -> WaitAction {
        guard case .running(var running) = state else { return .stop }
        if running.downstream != nil && running.closed == nil { return .proceed }
        running.gate = gate
        state = .running(running)
        return .suspend
    }

    /// The base produced `element`; returns the waiting `next()` and the chunk it closed, if it did.
    mutating func elementProduced(_ element: Element) -> (Downstream, Collected)? {
        guard case .running(var running) = state else { return nil }
        var chunk = running.chunk ?? Collected()
        chunk.append(element)
        running.chunk = chunk
        defer { state = .running(running) }
        guard let count, chunk.count >= count else { return nil }
        return close(&running)
    }

    /// The signal fired; returns the waiting `next()` and the chunk it closed, if it did.
    mutating func signalled() -> (Downstream, Collected)? {
        guard case .running(var running) = state, running.chunk != nil else { return nil }
        defer { state = .running(running) }
        return close(&running)
    }

    private func close(_ running: inout Running) -> (Downstream, Collected)? {
        guard let chunk = running.chunk else { return nil }
        running.chunk = nil
        guard let downstream = running.downstream else {
            running.closed = chunk
            return nil
        }
        running.downstream = nil
        return (downstream, chunk)
    }

    /// What ending hands back: the waiting `next()` with its result, the gate to stop, the task to cancel.
    struct Ending {
        var downstream: Downstream?
        var result: Result<Collected?, any Error> = .success(nil)
        var gate: Gate?
        var task: Handle?
    }

    /// The base finished: the closed and partial chunks go out, then the end.
    mutating func baseFinished() -> Ending {
        guard case .running(let running) = state else { return Ending() }
        var chunks = [running.closed, running.chunk].compactMap { $0 }
        var ending = Ending(downstream: running.downstream, gate: running.gate, task: running.task)
        if ending.downstream != nil, !chunks.isEmpty { ending.result = .success(chunks.removeFirst()) }
        state = .draining(chunks: chunks, failure: nil)
        return ending
    }

    /// The base or the signal failed: a closed chunk still goes out, the partial one is dropped.
    mutating func failed(_ error: any Error) -> Ending {
        guard case .running(let running) = state else { return Ending() }
        var ending = Ending(downstream: running.downstream, gate: running.gate, task: running.task)
        if ending.downstream != nil {
            ending.result = .failure(error)
            state = .draining(chunks: [], failure: nil)
        } else {
            state = .draining(chunks: running.closed.map { [$0] } ?? [], failure: error)
        }
        return ending
    }

    /// The consumer was cancelled or dropped its iterator: everything ends, `next()` returns nil,
    /// and no partial chunk goes out (the package's timer-signalled version sends one).
    mutating func cancelled() -> Ending {
        switch state {
        case .running(let running):
            state = .draining(chunks: [], failure: nil)
            return Ending(downstream: running.downstream, gate: running.gate, task: running.task)
        case .initial, .draining:
            state = .draining(chunks: [], failure: nil)
            return Ending()
        }
    }
}
