import Foundation

/// `:trace on`: a `handleEvents` stage after every stage reports its lifecycle.
enum Tracing {
    static func wrap(_ upstream: ValuePublisher, stage: Int, name: String, depth: Int, events: EventSerializer) -> ValuePublisher {
        @Sendable func emit(_ event: String) {
            events.send(.trace(stage: stage, name: name, depth: depth, event: event, thread: currentThreadName()))
        }
        return upstream.handleEvents(
            receiveSubscription: { _ in emit("subscribe") },
            receiveOutput: { emit("value \($0)") },
            receiveCompletion: { c in
                switch c {
                case .finished: emit("finished")
                case .failure(let e): emit("failed: \(PipelineError.from(e).message)")
                }
            },
            receiveCancel: { emit("cancel") },
            receiveRequest: { emit("request(\(describe($0)))") }
        ).valueStream()
    }

    static func describe(_ d: Subscribers.Demand) -> String {
        d == .unlimited ? "unlimited" : "\(d.max ?? 0)"
    }

    static func currentThreadName() -> String {
        if Thread.isMainThread { return "main" }
        return Thread.current.name.flatMap { $0.isEmpty ? nil : $0 } ?? "thread"
    }
}

