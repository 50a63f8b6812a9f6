import Foundation

/// The builders: each calls the `Reactive` operator of the same name. An entry whose builder is
/// nil is left out of the catalog (its core operator has not landed).
enum Build {
    static let just: Builder? = { b in
        Publishers.Sequence<[Value], any Error>(sequence: [try b.value(0)]).eraseToAnyPublisher()
    }
    static let from: Builder? = { b in
        guard let a = b.argument(0), case .expr(let e) = a.value else { throw b.error("from expects an array or a range") }
        if case .range(let lo, let hi) = e.kind {
            let compiler = ExpressionCompiler(source: b.source)
            guard case .int(let x) = try compiler.compile(lo)(b.env), case .int(let y) = try compiler.compile(hi)(b.env) else {
                throw b.error("from expects a range of integers")
            }
            guard x <= y else { throw b.error("range \(x)...\(y) has its lower bound above its upper bound") }
            return Publishers.Sequence<LazyMapSequence<ClosedRange<Int>, Value>, any Error>(sequence: (x...y).lazy.map(Value.int)).eraseToAnyPublisher()
        }
        guard case .array(let items) = try b.value(0) else { throw b.error("from expects an array or a range") }
        return Publishers.Sequence<[Value], any Error>(sequence: items).eraseToAnyPublisher()
    }
    static let empty: Builder? = { _ in Empty<Value, any Error>().eraseToAnyPublisher() }
    static let never: Builder? = { _ in Empty<Value, any Error>(completeImmediately: false).eraseToAnyPublisher() }
    static let fail: Builder? = { b in
        let message = try b.value(0).plainText
        return Fail<Value, any Error>(error: b.error(message)).eraseToAnyPublisher()
    }
    static let interval: Builder? = nil
    static let timer: Builder? = nil
    static let future: Builder? = nil
    static let deferred: Builder? = nil
    static let subject: Builder? = nil
    static let currentValue: Builder? = nil

    static let map: Builder? = nil
    static let filter: Builder? = nil
    static let compactMap: Builder? = nil
    static let scan: Builder? = nil
    static let reduce: Builder? = nil
    static let count: Builder? = nil
    static let collect: Builder? = nil
    static let first: Builder? = nil
    static let last: Builder? = nil
    static let prefix: Builder? = nil
    static let dropFirst: Builder? = nil
    static let drop: Builder? = nil
    static let removeDuplicates: Builder? = nil
    static let ignoreOutput: Builder? = nil
    static let replaceEmpty: Builder? = nil
    static let replaceNil: Builder? = nil
    static let replaceError: Builder? = nil
    static let min: Builder? = nil
    static let max: Builder? = nil
    static let contains: Builder? = nil
    static let allSatisfy: Builder? = nil
    static let output: Builder? = nil
    static let handleEvents: Builder? = nil
    static let share: Builder? = nil
    static let flatMap: Builder? = nil
    static let merge: Builder? = nil
    static let zip: Builder? = nil
    static let combineLatest: Builder? = nil
    static let switchToLatest: Builder? = nil
    static let append: Builder? = nil
    static let prepend: Builder? = nil
    static let catchError: Builder? = nil
    static let retry: Builder? = nil
    static let delay: Builder? = nil
    static let debounce: Builder? = nil
    static let throttle: Builder? = nil
    static let timeout: Builder? = nil
    static let measureInterval: Builder? = nil
    static let buffer: Builder? = nil
    static let receiveOn: Builder? = nil
    static let subscribeOn: Builder? = nil
    static let asyncMap: Builder? = nil
}

/// Eager sources made once per binding.
enum Hot {
    static func make(_ name: String, _ b: StageBuild) throws -> HotSource? {
        nil
    }
}

/// `:trace on`: a `handleEvents` stage after every stage.
enum Tracing {
    static func wrap(_ upstream: ValuePublisher, stage: Int, name: String, depth: Int, events: EventSerializer) -> ValuePublisher {
        upstream
    }
}

/// The `values` and `async` terminals, through the core's async bridges.
enum Terminals {
    static func startAsync(_ publisher: ValuePublisher, terminal: String, runtime: Runtime, events: EventSerializer) -> AnyCancellable {
        events.send(.subscribed)
        events.send(.failed(PipelineError(message: "'\(terminal)' is not available yet")), terminal: true)
        return AnyCancellable {}
    }
}
