import Foundation
import Synchronization

/// The graph builder: turns a checked pipeline into `Reactive` publishers, stage by stage, for one
/// run. It reads only the checked tree (nested pipelines were checked with their stage), so it
/// never calls the checker. Bindings resolve in the scope they were made in: `let d = d | map …`
/// builds over the `d` that existed when the `let` ran, never over itself.
final class BuildContext: Sendable {
    let runtime: Runtime
    /// The bindings this pipeline names, as they were when its statement executed.
    let bindings: [String: Binding]
    /// Where the run's events go (nil when building outside a run: a binding's shared instance,
    /// `Pipeline.makePublisher`).
    let events: EventSerializer?
    /// `:trace on`: a `handleEvents` stage after every stage reports its lifecycle.
    let trace: Bool
    /// Marble diagrams: stages and inner publishers report `.lane` events.
    let record: Bool
    /// Shared by every graph this run builds, in any scope.
    let run: RunState

    init(
        runtime: Runtime, bindings: [String: Binding], events: EventSerializer?, trace: Bool = false, record: Bool = false,
        run: RunState = RunState()
    ) {
        self.runtime = runtime
        self.bindings = bindings
        self.events = events
        self.trace = trace
        self.record = record
        self.run = run
    }

    /// Reports a line a stage writes (`print`, hooks, notes): to the run's events, or outside a
    /// run to the runtime's note handler (the shell prints it above the prompt).
    func output(_ kind: OutputKind, stage: Int, _ text: String) {
        reporter()(kind, stage, text)
    }

    /// Where this graph's lines go, decided now: the run's events; for a graph built outside a
    /// run (a binding's shared instance), the run subscribing to it at this moment
    /// (`SubscribingRun`), so `let f = deferred { future … } | share` reports its future's start
    /// in the run that started it; else the runtime's note handler.
    func reporter() -> @Sendable (OutputKind, Int, String) -> Void {
        if let events = events ?? SubscribingRun.events {
            return { kind, stage, text in events.send(.output(kind, stage: stage, text: text)) }
        }
        let runtime = self.runtime
        return { _, _, text in runtime.note(text) }
    }

    /// A binding's publisher: its shared instance for an eager source, else its pipeline built
    /// anew in the binding's own scope.
    func buildBinding(_ name: String, depth: Int) throws -> ValuePublisher {
        guard let binding = bindings[name] else { throw PipelineError(.unknownBinding(name), location: nil) }
        let scope = BuildContext(runtime: runtime, bindings: binding.scope, events: events, trace: trace, record: record, run: run)
        if let hot = binding.hot {
            var rest = binding.pipeline
            rest.stages.removeFirst(hot.stages)
            let upstream = events.map { SubscribingRun.Reporting(upstream: hot.publisher, events: $0).valueStream() } ?? hot.publisher
            return try scope.build(rest, source: binding.source, env: .none, depth: depth, upstream: upstream, lanes: .none)
        }
        return try scope.build(
            binding.pipeline, source: binding.source, env: .none, depth: depth, lanes: .none, counting: binding.subscriptions)
    }

    /// - Parameters:
    ///   - lanes: where the stages draw in a marble diagram (when recording).
    ///   - counting: counts subscriptions to the first stage (a binding's source).
    func build(
        _ p: CheckedPipeline, source: SourceText, env: ClosureArguments, depth: Int, upstream start: ValuePublisher? = nil,
        lanes: LaneScope = .stages, counting: SubscriptionCounter? = nil
    ) throws -> ValuePublisher {
        var upstream = start ?? Empty<Value, any Error>().valueStream()
        // After `values` or `stream`, the stages build over this async sequence until `publisher`
        // (or the end) crosses back.
        var sequence: AsyncValues?
        // The channel binding this pipeline reads (`c | …`): the run counts as its reader.
        var reads: ChannelBox?
        for (index, stage) in p.stages.enumerated() {
            // The lane is chosen before the stage is built, so its inner pipelines can hang under it.
            let lane = openLane(for: stage, index: index, of: p, lanes: lanes, source: source)
            if case .binding(let name) = stage.target, bindings[name]?.hot?.channel == nil {
                // The recursion: only this call is on the frame bindings recurse through.
                upstream = try buildBinding(name, depth: depth)
                upstream = finishStage(upstream, binding: name, index: index, name: stage.stage.name, lane: lane, depth: depth, counting: counting)
            } else {
                try buildStage(
                    stage, index: index, lane: lane, source: source, env: env, depth: depth, counting: counting,
                    upstream: &upstream, sequence: &sequence, reads: &reads)
            }
        }
        // A pipeline that ends on the async side is consumed as a publisher of its sequence: a
        // task iterates it while the terminal asks (a sink asks for everything: `for try await`).
        return finishBuild(upstream: upstream, sequence: sequence, reads: reads)
    }

    // `build` recurses through bindings (`let a2 = a1 | …` builds `a1` inside its frame), a
    // thousand deep at the cap: what is not the loop itself stays out of line, so its frame
    // stays small in a debug build too (`DepthCapEndToEndTests`).

    /// One stage that is not a binding's recursion: a channel read, a stage across or on the
    /// async side, or a catalog entry.
    @inline(never)
    private func buildStage(
        _ stage: CheckedStage, index: Int, lane: Int?, source: SourceText, env: ClosureArguments, depth: Int,
        counting: SubscriptionCounter?, upstream: inout ValuePublisher, sequence: inout AsyncValues?, reads: inout ChannelBox?
    ) throws {
        if case .binding(let name) = stage.target, let channel = bindings[name]?.hot?.channel {
            // `c | …`: the pipeline starts on the async side, reading the binding's channel.
            sequence = reportingLane(channel.sequence, lane: lane)
            reads = channel
            return
        }
        if let entry = stage.entry, entry.crossing != nil || stage.side == .async {
            try buildAcross(entry, stage, index: index, lane: lane, source: source, env: env, depth: depth, upstream: &upstream, sequence: &sequence)
            return
        }
        guard case .entry(let i) = stage.target else { return }
        let built = try buildEntry(Catalog.table[i], stage, index: index, lane: lane, source: source, env: env, depth: depth, upstream: upstream)
        upstream = finishStage(built, binding: nil, index: index, name: stage.stage.name, lane: lane, depth: depth, counting: counting)
    }

    /// A built stage with what wraps it: a shared binding's subscriber lanes, the subscription
    /// count of a binding's source, the trace and the lane's reporting.
    @inline(never)
    private func finishStage(
        _ built: ValuePublisher, binding: String?, index: Int, name: String, lane: Int?, depth: Int, counting: SubscriptionCounter?
    ) -> ValuePublisher {
        var upstream = built
        if let binding, let events, record, bindings[binding]?.isShared == true, let header = run.sharedLane(of: binding, proposing: lane) {
            upstream = subscriberLanes(upstream, binding: binding, under: header, events: events)
        }
        if index == 0, let counting { upstream = counting.counting(upstream) }
        if let events, trace || lane != nil {
            upstream = Tracing.wrap(
                upstream, stage: index, name: name, depth: depth, runtime: runtime, events: events, trace: trace, lane: lane, run: run)
        }
        return upstream
    }

    /// The marble-diagram lane a stage draws on, opened (when recording).
    @inline(never)
    private func openLane(for stage: CheckedStage, index: Int, of p: CheckedPipeline, lanes: LaneScope, source: SourceText) -> Int? {
        guard record, let events else { return nil }
        var lane: Int?
        switch lanes {
        case .stages: lane = run.nextLane()
        case .inner where index == p.stages.count - 1: lane = run.nextLane()
        default: break
        }
        if let lane {
            var parent: Int?
            if case .inner(let p) = lanes { parent = p }
            events.send(.lane(lane, .opened(label: source.text(stage.stage.span), stage: index, parent: parent)))
        }
        return lane
    }

    /// The built pipeline: a sequence crossed back when it ends on the async side, counted as a
    /// reader of the channel it reads.
    @inline(never)
    private func finishBuild(upstream: ValuePublisher, sequence: AsyncValues?, reads: ChannelBox?) -> ValuePublisher {
        let built = sequence.map(crossBack) ?? upstream
        return reads?.countingReaders(built) ?? built
    }

    /// An async stage's sequence reporting on its marble-diagram lane (when it has one): each
    /// element and the end, and the consumer's pulls within the run's budget.
    @inline(never)
    private func reportingLane(_ sequence: AsyncValues, lane: Int?) -> AsyncValues {
        guard let lane, let events else { return sequence }
        let run = self.run
        return sequence.reporting(counting: run.asyncLanes) { signal in
            switch signal {
            case .finished, .failed, .cancelled: events.send(.lane(lane, signal))
            default: if run.takeLaneSignal() { events.send(.lane(lane, signal)) }
            }
        }
    }

    /// One catalog stage on the publisher side, or the workshop's placeholder failing where it stands.
    @inline(never)
    private func buildEntry(
        _ entry: CatalogEntry, _ stage: CheckedStage, index: Int, lane: Int?, source: SourceText, env: ClosureArguments, depth: Int,
        upstream: ValuePublisher
    ) throws -> ValuePublisher {
        let build = StageBuild(
            context: self, upstream: upstream, stage: stage, env: env, source: source, depth: depth, index: index, lane: lane)
        if let todo = stage.todo {
            return Fail(error: PipelineError(.todo, location: source.location(of: todo.offset))).valueStream()
        }
        switch entry.build {
        case .source(let make), .operator(let make): return try make(build)
        case .asyncOnly: throw PipelineError(.noFormOnSide(stage.stage.name, side: .publisher), location: build.location)
        case .terminal: throw PipelineError(.terminalNested(stage.stage.name), location: build.location)
        }
    }

    /// `share` drawn: each subscription to a shared binding gets a lane of its own (`subscriber
    /// 1`, `subscriber 2`, …) under the stage that first named the binding in this run, starting
    /// where it subscribed, so a late subscriber is seen joining the one upstream subscription.
    private func subscriberLanes(_ upstream: ValuePublisher, binding: String, under header: Int, events: EventSerializer) -> ValuePublisher {
        let (run, runtime) = (run, runtime)
        return Deferred { () -> ValuePublisher in
            let lane = run.nextLane()
            let label = "subscriber \(run.nextSubscriber(of: binding))"
            events.send(.lane(lane, .opened(label: label, stage: LaneSignal.subscriberStage, parent: header)))
            return Tracing.wrap(upstream, stage: 0, name: binding, depth: 0, runtime: runtime, events: events, trace: false, lane: lane, run: run)
        }.valueStream()
    }

    /// One crossing or async stage: `values`/`stream` start the async sequence, `publisher` ends it,
    /// an async stage builds its twin over it.
    @inline(never)
    private func buildAcross(
        _ entry: CatalogEntry, _ stage: CheckedStage, index: Int, lane: Int?, source: SourceText, env: ClosureArguments, depth: Int,
        upstream: inout ValuePublisher, sequence: inout AsyncValues?
    ) throws {
        let build = StageBuild(
            context: self, upstream: upstream, stage: stage, env: env, source: source, depth: depth, index: index, lane: lane)
        switch entry.crossing {
        case .values?: sequence = AsyncValues(upstream.values)
        case .stream?: sequence = try AsyncStreamBridge.sequence(upstream, build)
        case .publisher?:
            upstream = crossBack(sequence ?? AsyncValues(upstream.values))
            sequence = nil
        case nil:
            // An async source (`timer every`) starts the sequence: its base is empty.
            guard let form = entry.async, let current = sequence ?? (index == 0 ? AsyncValues([Value]().async) : nil) else {
                throw PipelineError(.noFormOnSide(stage.stage.name, side: .async), location: build.location)
            }
            sequence = try form.build(build, current)
        }
        if stage.side == .async, lane != nil, events != nil, let current = sequence {
            sequence = reportingLane(current, lane: lane)
        } else if stage.side == .publisher, let events, trace || lane != nil {
            upstream = Tracing.wrap(
                upstream, stage: index, name: stage.stage.name, depth: depth, runtime: runtime, events: events,
                trace: trace, lane: lane, run: run)
        }
    }

    /// `sequence.publisher`, iterating in a task on the runtime's executor, with ReactiveAsync's
    /// operators' tasks on that executor too: on the virtual clock one timeline with the rest.
    func crossBack(_ sequence: AsyncValues) -> ValuePublisher {
        let executor = runtime.taskExecutor
        return Publishers.AsyncSequence(sequence.preferring(executor), executorPreference: executor).valueStream()
    }

    /// A binding's shared instance, made when the `let` runs: an eager source (`let s = subject`,
    /// `let c = currentValue 0`, `let f = future …`), and the pipeline up to its last `share`
    /// (`let t = interval 100ms | take 5 | share`: every use of `t` shares one subscription).
    /// - Parameter counting: counts subscriptions to the binding's source (`expect subscriptions`).
    func hotSource(for p: CheckedPipeline, source: SourceText, counting: SubscriptionCounter? = nil) throws -> HotSource? {
        guard let first = p.stages.first else { return nil }
        var hot: HotSource?
        // A channel is shared only as the binding itself (`let c = channel`): in a longer pipeline
        // nobody could send to it.
        if let make = first.entry?.hot, first.entry?.isChannel != true || p.stages.count == 1 {
            hot = try make(StageBuild(context: self, upstream: Empty<Value, any Error>().valueStream(), stage: first, env: .none, source: source, depth: 0))
            if let counting, var counted = hot {
                counted.publisher = counting.counting(counted.publisher)
                hot = counted
            }
        }
        guard let shared = p.stages.lastIndex(where: { $0.entry?.sharesUpstream == true }) else { return hot }
        var prefix = p
        prefix.stages = Array(p.stages[(hot == nil ? 0 : 1)...shared])
        let publisher = try build(
            prefix, source: source, env: .none, depth: 0, upstream: hot?.publisher, counting: hot == nil ? counting : nil)
        return HotSource(publisher: publisher, send: hot?.send, complete: hot?.complete, stages: shared + 1)
    }
}

/// The run whose subscription is going on, on this thread: a binding's shared graph, built when
/// its `let` ran, has no run of its own, and what it says while a run subscribes to it (a
/// `deferred` making a future) belongs to that run.
enum SubscribingRun {
    @TaskLocal static var events: EventSerializer?

    /// Subscribes `upstream` with `events` as the subscribing run.
    struct Reporting: Publisher {
        typealias Output = Value
        typealias Failure = any Error
        let upstream: ValuePublisher
        let events: EventSerializer

        func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == any Error {
            SubscribingRun.$events.withValue(events) { upstream.receive(subscriber: subscriber) }
        }
    }
}

/// What lives for one run of a statement and is shared by every graph the run builds: a
/// `deferred`'s graph per subscription, `flatMap`'s inner ones, a binding's. Today that is
/// `flaky`'s call counts, so `deferred { just true | asyncMap flaky 2 } | retry 3` recovers as
/// `Deferred { Future { … } }.retry(3)` does. The next statement's run starts from zero.
final class RunState: Sendable {
    private let counters = Lock([String: FlakyCounter]())
    private let lanes = Lock(0)
    /// Ends the run with a failure: set when its terminal subscribes (nil outside a run).
    private let failRun = Lock<(@Sendable (PipelineError) -> Void)?>(nil)

    /// Called once the run's terminal exists: `abort` then reports the failure and cancels it.
    func onAbort(_ fail: @escaping @Sendable (PipelineError) -> Void) { failRun.withLock { $0 = fail } }

    /// Fails the run from inside the graph, where an operator cannot fail by itself: a closure
    /// built over a non-throwing operator because it was proved infallible, and failed anyway.
    /// The run reports `failed` with the closure's error and position and is cancelled; only the
    /// first call counts. Outside a run (`Pipeline.makePublisher`) nothing is reported.
    func abort(_ error: PipelineError) {
        let fail = failRun.withLock { f -> (@Sendable (PipelineError) -> Void)? in
            defer { f = nil }
            return f
        }
        fail?(error)
    }

    private let shared = Lock([String: (lane: Int, subscribers: Int)]())

    /// The lane a shared binding's subscribers are drawn under in this run: the first lane
    /// proposed for it (the first stage naming it that has a lane); nil until one is.
    func sharedLane(of binding: String, proposing lane: Int?) -> Int? {
        shared.withLock { table in
            if let known = table[binding] { return known.lane }
            guard let lane else { return nil }
            table[binding] = (lane, 0)
            return lane
        }
    }

    /// The number of the next subscriber of a shared binding in this run, from 1.
    func nextSubscriber(of binding: String) -> Int {
        shared.withLock { table in
            table[binding, default: (0, 0)].subscribers += 1
            return table[binding]?.subscribers ?? 1
        }
    }

    /// A new marble-diagram lane id, unique within the run.
    func nextLane() -> Int {
        lanes.withLock { n in
            defer { n += 1 }; return n
        }
    }

    /// Lane signals a run reports at most: a diagram cannot show more, and past it the stages
    /// stop paying for them (`from 1...1000000` in the REPL, with marbles on).
    static let laneSignalBudget = 20_001  // one past the shell's 20,000, so it can say the diagram stopped
    private let laneSignals = Atomic<Int>(0)
    /// The run's async lanes still iterating (reported ends come after the run's end).
    let asyncLanes = OpenAsyncLanes()

    /// Whether one more lane signal fits the budget.
    func takeLaneSignal() -> Bool {
        laneSignals.add(1, ordering: .relaxed).newValue <= Self.laneSignalBudget
    }

    /// The counter of the stage written at `offset` in `source`: one per place in the text.
    func flakyCounter(_ source: SourceText, at offset: Int) -> FlakyCounter {
        let key = "\(source.file):\(source.firstLine):\(source.bytes.count):\(offset)"
        return counters.withLock { table in
            if let counter = table[key] { return counter }
            let counter = FlakyCounter()
            table[key] = counter
            return counter
        }
    }
}

/// Where a build's stages draw in a marble diagram.
enum LaneScope {
    /// The statement's pipeline: a lane per stage.
    case stages
    /// An inner publisher (flatMap's per value, merge's argument …): its output as one lane under
    /// the lane of the stage that built it.
    case inner(parent: Int)
    /// Not drawn: a binding's own stages (the stage naming the binding is the lane).
    case none
}

extension Binding {
    /// Bound over a `share`: every use subscribes to one upstream subscription.
    var isShared: Bool { hot != nil && pipeline.stages.contains { $0.entry?.sharesUpstream == true } }
}
