import Foundation

/// `:trace on`: a `handleEvents` stage after every stage reports its lifecycle.
enum Tracing {
    /// Also, when `lane` is given, the marble diagram's `.lane` signals: one hook serves both.
    static func wrap(
        _ upstream: ValuePublisher, stage: Int, name: String, depth: Int, runtime: Runtime, events: EventSerializer,
        trace: Bool = true, lane: Int? = nil, run: RunState? = nil
    ) -> ValuePublisher {
        // The event's text is made only when tracing: with marbles on and `:trace off`, building
        // "value 123" for every value was most of what the hook cost.
        @Sendable func emit(_ event: @autoclosure () -> String) {
            guard trace else { return }
            events.send(.trace(stage: stage, name: name, depth: depth, event: event(), thread: threadName(runtime)))
        }
        @Sendable func signal(_ s: LaneSignal) {
            guard let lane else { return }
            // How a lane ends is always reported, past the budget too: a diagram must show it.
            let ending: Bool
            switch s {
            case .finished, .failed, .cancelled: ending = true
            default: ending = false
            }
            if ending || run?.takeLaneSignal() ?? true { events.send(.lane(lane, s)) }
        }
        return upstream.handleEvents(
            receiveSubscription: { _ in
                emit("subscribe")
                signal(.subscribed)
            },
            receiveOutput: {
                emit("value \($0)")
                signal(.value($0))
            },
            receiveCompletion: { c in
                switch c {
                case .finished:
                    emit("finished")
                    signal(.finished)
                case .failure(let e):
                    let error = PipelineError.from(e)
                    emit(error.heading + ": " + error.message)
                    signal(.failed(error))
                }
            },
            receiveCancel: {
                emit("cancel")
                signal(.cancelled)
            },
            receiveRequest: { emit("request(\(describe($0)))") }
        ).valueStream()
    }

    static func describe(_ d: Subscribers.Demand) -> String {
        d == .unlimited ? "unlimited" : "\(d.max ?? 0)"
    }

    /// Where an event happens, in words a person reads: `virtual` (the virtual clock runs everything
    /// on the thread that drives it), `main`, `queue:runtime` (the runtime's serial queue) or
    /// `queue:global` (dispatch's global queues and the concurrency pool). Thread names are no use
    /// here: Linux cuts them to 15 bytes (`r-initiated-qos`).
    static func threadName(_ runtime: Runtime) -> String {
        if runtime.clock == .virtual { return "virtual" }
        if Thread.isMainThread { return "main" }
        if DispatchQueue.getSpecific(key: Runtime.queueKey) != nil { return "queue:runtime" }
        return "queue:global"
    }
}
