import Reactive
import ReactiveTestSupport
import Testing

/// The operator after `tryMap` in `StepFusionTests`, which fuses into its engine.
enum FusedSecond: String, CaseIterable, CustomTestStringConvertible {
    case tryFilter, tryMap, count, collect, collectTwo, reduce, first, output, last, replaceError, allSatisfy, contains, prefixWhile, prefixZero

    var testDescription: String { rawValue }

    func apply<U: Publisher>(_ upstream: U) -> AnyPublisher<String, any Error> where U.Output == Int, U.Failure == any Error {
        switch self {
        case .tryFilter: return upstream.tryFilter { $0 % 20 != 0 }.map { "\($0)" }.eraseToAnyPublisher()
        case .tryMap: return upstream.tryMap { "\($0)" }.eraseToAnyPublisher()
        case .count: return upstream.count().map { "\($0)" }.eraseToAnyPublisher()
        case .collect: return upstream.collect().map { "\($0)" }.eraseToAnyPublisher()
        case .collectTwo: return upstream.collect(2).map { "\($0)" }.eraseToAnyPublisher()
        case .reduce: return upstream.reduce(0, +).map { "\($0)" }.eraseToAnyPublisher()
        case .first: return upstream.first().map { "\($0)" }.eraseToAnyPublisher()
        case .output: return upstream.output(at: 1).map { "\($0)" }.eraseToAnyPublisher()
        case .last: return upstream.last().map { "\($0)" }.eraseToAnyPublisher()
        case .replaceError:
            return upstream.replaceError(with: -1).map { "\($0)" }.setFailureType(to: (any Error).self).eraseToAnyPublisher()
        case .allSatisfy: return upstream.allSatisfy { $0 < 40 }.map { "\($0)" }.eraseToAnyPublisher()
        case .contains: return upstream.contains(30).map { "\($0)" }.eraseToAnyPublisher()
        case .prefixWhile: return upstream.prefix(while: { $0 < 40 }).map { "\($0)" }.eraseToAnyPublisher()
        case .prefixZero: return upstream.output(in: 0..<0).map { "\($0)" }.eraseToAnyPublisher()
        }
    }
}

/// What the upstream does and how downstream asks, in `StepFusionTests`.
enum FusionScript: String, CaseIterable, CustomTestStringConvertible {
    /// Five values then finished, unlimited demand.
    case unlimited
    /// One value at a time, asked for after each send.
    case oneByOne
    /// No demand until after the completion, then one.
    case lateDemand
    /// The first stage throws at the third value.
    case throwing
    /// Upstream fails after two values.
    case upstreamFailure
    /// Downstream cancels after two values.
    case cancelled

    var testDescription: String { rawValue }
}

/// A per-value operator fused with the step operator after it runs both logics in one engine;
/// these pin that the fused engine is indistinguishable from the two engines it replaces, by
/// running each pair once fused and once with `handleEvents()` in between (which keeps them apart).
@Suite("Operators: step fusion")
struct StepFusionTests {
    private struct Run: Equatable, CustomStringConvertible {
        var events: [String]
        var requested: [Subscribers.Demand]
        var cancels: Int
        var violations: [String]
        var description: String { "events \(events), requested \(requested), cancels \(cancels), violations \(violations)" }
    }

    private func run(_ script: FusionScript, _ make: (ManualPublisher<Int, TestError>) -> AnyPublisher<String, any Error>) -> Run {
        let source = ManualPublisher<Int, TestError>()
        let initial: Subscribers.Demand =
            switch script {
            case .oneByOne: .max(1)
            case .lateDemand: .none
            default: .unlimited
            }
        let subscriber = TestSubscriber<String, any Error>(initialDemand: initial)
        make(source).subscribe(subscriber)
        for value in 1...5 {
            source.send(value)
            if script == .oneByOne { subscriber.request(.max(1)) }
            if script == .upstreamFailure, value == 2 { source.send(completion: .failure(TestError("upstream"))) }
            if script == .cancelled, value == 2 { subscriber.cancel() }
        }
        source.send(completion: .finished)
        if script == .lateDemand { subscriber.request(.max(1)) }
        return Run(
            events: subscriber.events.map(\.description),
            requested: source.last?.requested ?? [],
            cancels: source.last?.cancelCount ?? 0,
            violations: subscriber.violations)
    }

    private func first<U: Publisher>(_ upstream: U, throwing: Bool) -> Publishers.TryMap<U, Int> where U.Output == Int {
        upstream.tryMap { value in
            if throwing, value == 3 { throw TestError("thrown") }
            return value * 10
        }
    }

    @Test("tryMap then a step operator: fused, the same events, demand and cancels as apart", arguments: FusedSecond.allCases, FusionScript.allCases)
    func tryMapThen(second: FusedSecond, script: FusionScript) {
        let throwing = script == .throwing
        let fused = run(script) { second.apply(first($0, throwing: throwing)) }
        let apart = run(script) { second.apply(first($0, throwing: throwing).handleEvents()) }
        #expect(fused == apart)
        // `lateDemand` sends without demand (the manual source does not check): only a reducer
        // keeps the grammar there, fused or not.
        if script != .lateDemand { #expect(fused.violations.isEmpty) }
    }

    @Test("tryFilter and tryCompactMap fuse too, and a run of three fuses into one", arguments: FusionScript.allCases)
    func longerRuns(script: FusionScript) {
        func chain<U: Publisher>(_ upstream: U, splitting: Bool) -> AnyPublisher<String, any Error> where U.Output == Int, U.Failure == TestError {
            let filtered = upstream.tryFilter { value in
                if script == .throwing, value == 3 { throw TestError("thrown") }
                return value != 2
            }
            if splitting {
                return filtered.handleEvents().tryCompactMap { $0 == 4 ? nil : $0 }.handleEvents().reduce(0, +).map { "\($0)" }.eraseToAnyPublisher()
            }
            return filtered.tryCompactMap { $0 == 4 ? nil : $0 }.reduce(0, +).map { "\($0)" }.eraseToAnyPublisher()
        }
        let fused = run(script) { chain($0, splitting: false) }
        let apart = run(script) { chain($0, splitting: true) }
        #expect(fused == apart)
        #expect(fused.violations.isEmpty)
    }

    @Test("the fused subscription is named after the operator nearest downstream")
    func description() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
        var names: [String] = []
        subscriber.onSubscribe = { subscription, _ in names.append("\(subscription)") }
        ManualPublisher<Int, TestError>().tryMap { $0 }.tryFilter { _ in true }.subscribe(subscriber)
        #expect(names == ["TryFilter"])
    }
}
