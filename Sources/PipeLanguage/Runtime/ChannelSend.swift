import Reactive
import ReactiveAsync
import Synchronization

/// A `let c = channel`'s one `AsyncChannel`, with what the shell asks of it: how many pipelines
/// read it now (a run subscribed to a pipeline starting with `c`, until it ends or is cancelled)
/// and whether `c.finish` ended it.
final class ChannelBox: Sendable {
    /// Each value travels with its ticket, which the reader punches as it takes the value: a
    /// send knows it was taken even when its task is cancelled a moment later.
    let channel = AsyncChannel<ChannelTicket>()
    private let readerCount = Atomic<Int>(0)
    private let finishedFlag = Atomic<Bool>(false)

    /// The pipelines subscribed to the channel now.
    var readers: Int { readerCount.load(ordering: .acquiring) }
    /// True once `c.finish` ran.
    var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }

    /// The channel as the sequence async stages build over (each use iterates it anew; each
    /// element goes to one iterator, as the package's guide says of several consumers).
    var sequence: AsyncValues { AsyncValues(channel.map { $0.take() }) }

    /// Ends the channel: every reader's iteration ends, later ones end at once.
    func finish() {
        finishedFlag.store(true, ordering: .releasing)
        channel.finish()
    }

    /// `publisher`, counted as a reader of the channel from its subscription until it completes
    /// or is cancelled: what a send in a script reads to know nobody will ever take its value.
    /// The subscriber hears the completion before the reader is counted out, so a script that
    /// waits for the readers to end finds its jobs ended.
    func countingReaders(_ publisher: ValuePublisher) -> ValuePublisher {
        ChannelReading(upstream: publisher, box: self).valueStream()
    }

    fileprivate func add(_ n: Int) { readerCount.add(n, ordering: .acquiringAndReleasing) }
}

/// One subscription reading a channel; `end()` counts it out once.
private final class ChannelReader: Sendable {
    private let box: ChannelBox
    private let ended = Atomic<Bool>(false)

    init(_ box: ChannelBox) {
        self.box = box
        box.add(1)
    }

    func end() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        box.add(-1)
    }

    deinit { end() }
}

/// A channel's reading pipeline, counted as a reader while its subscription lives.
private struct ChannelReading: Publisher {
    typealias Output = Value
    typealias Failure = any Error
    let upstream: ValuePublisher
    let box: ChannelBox

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == any Error {
        upstream.receive(subscriber: ChannelReadingSubscriber(downstream: subscriber, reader: ChannelReader(box)))
    }
}

/// Passes everything on; counts the reader out after the completion reached downstream, or on cancel.
private final class ChannelReadingSubscriber<Downstream: Subscriber>: Subscriber, Subscription
where Downstream.Input == Value, Downstream.Failure == any Error {
    typealias Input = Value
    typealias Failure = any Error
    private let downstream: Downstream
    private let reader: ChannelReader
    private let upstream = Lock<(any Subscription)?>(nil)

    init(downstream: Downstream, reader: ChannelReader) {
        self.downstream = downstream
        self.reader = reader
    }

    func receive(subscription: any Subscription) {
        upstream.withLock { $0 = subscription }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Value) -> Subscribers.Demand { downstream.receive(input) }

    func receive(completion: Subscribers.Completion<any Error>) {
        downstream.receive(completion: completion)
        reader.end()
    }

    func request(_ demand: Subscribers.Demand) {
        let subscription = upstream.withLock { $0 }
        subscription?.request(demand)
    }

    func cancel() {
        let subscription = upstream.withLock { held -> (any Subscription)? in
            defer { held = nil }
            return held
        }
        subscription?.cancel()
        reader.end()
    }
}

/// One value sent into a channel, taken (once) by the reader whose `next()` gets it.
final class ChannelTicket: Sendable {
    let value: Value
    private let taken = Atomic<Bool>(false)

    init(_ value: Value) { self.value = value }

    /// True once a reader took the value.
    var isTaken: Bool { taken.load(ordering: .acquiring) }

    /// Marks the value taken and returns it.
    func take() -> Value {
        taken.store(true, ordering: .releasing)
        return value
    }
}

/// `c.send VALUE` to a channel binding, as `Session.execute` hands it to the host: the send waits
/// until a reader takes the value (`AsyncChannel.send` suspends until a consumer's `next()` takes
/// it), so the host starts it, waits (the shell says that it waits, and Ctrl-C cancels it), and
/// says what happened. A cancelled send drops its value; the channel stays open.
///
/// ```swift
/// if case .success(.send(let send)) = session.execute(statement) {
///     send.start { wake.signal() }
///     session.runtime.driveVirtualTime { send.isDone }
///     send.wasTaken   // true once a reader took the value
/// }
/// ```
public final class ChannelSend: Sendable {
    /// The channel's name (`c`).
    public let name: String
    /// The value as the language writes it (`1`, `"a"`).
    public let valueText: String
    /// Where the statement is.
    public let location: SourceLocation
    private let ticket: ChannelTicket
    private let box: ChannelBox
    private let runtime: Runtime
    private let source: SourceText
    private let span: Span
    private let task = Lock<Task<Void, Never>?>(nil)
    /// True once the send returned (taken, or cancelled).
    private let ended = Atomic<Bool>(false)
    /// True once `cancel()` was called.
    private let cancelled = Atomic<Bool>(false)

    init(name: String, value: Value, box: ChannelBox, runtime: Runtime, source: SourceText, span: Span) {
        self.name = name
        self.ticket = ChannelTicket(value)
        self.valueText = value.description
        self.box = box
        self.runtime = runtime
        self.source = source
        self.span = span
        self.location = source.location(of: span.offset)
    }

    /// `c.send 1`, as written.
    public var statementText: String { "\(name).send \(valueText)" }
    /// How many pipelines read the channel now (0: nobody will take the value unless one starts).
    public var readers: Int { box.readers }
    /// True once the send returned (taken or cancelled).
    public var isDone: Bool { ended.load(ordering: .acquiring) }
    /// True once a reader took the value: its `next()` dequeued it (the send returned without
    /// being cancelled; the reader's task may not have run on yet), or the reader punched its
    /// ticket (possibly before a cancel reached the send).
    public var wasTaken: Bool {
        ticket.isTaken || (ended.load(ordering: .acquiring) && !cancelled.load(ordering: .acquiring))
    }

    /// Starts the send in a task (on the virtual clock, on the runtime's executor: one timeline
    /// with the readers); `onEnd` is called once it returns, on the task's thread.
    public func start(onEnd: @escaping @Sendable () -> Void) {
        let (channel, ticket) = (box.channel, ticket)
        let sending = Task(executorPreference: runtime.taskExecutor) { [self] in
            await channel.send(ticket)
            ended.store(true, ordering: .releasing)
            onEnd()
        }
        task.withLock { $0 = sending }
    }

    /// Cancels the waiting send: its value is dropped and the channel stays open (the package's
    /// `send` returns when its task is cancelled).
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        let sending = task.withLock { $0 }
        sending?.cancel()
    }

    /// Why nobody took the value, as the language's error at the channel's name (E411).
    public func notTaken(_ reason: NotTaken) -> Diagnostic {
        source.diagnostic(.channelNotRead(name, value: valueText, reason: reason), at: span, help: "start a reader first: `\(name) | sink &`")
    }

    /// Why a send ended without a reader taking its value.
    public enum NotTaken: Sendable {
        /// No pipeline reads the channel (a script's send would wait for ever).
        case noReader
        /// On the virtual clock nothing more could happen, and nobody had taken it.
        case nothingMoreCanHappen
        /// The virtual horizon came first.
        case horizon
        /// A run is paused (`:step`) and its readers took nothing at this instant.
        case paused

        var phrase: String {
            switch self {
            case .noReader: "no pipeline reads it"
            case .nothingMoreCanHappen: "its readers took nothing more before nothing more could happen on the virtual clock"
            case .horizon: "its readers took nothing more before the virtual horizon"
            case .paused: "its readers took nothing at this instant of the paused run (time moves with :next)"
            }
        }
    }
}
