import Reactive
import ReactiveAsync
import Synchronization

/// A `let c = channel`'s one `AsyncChannel`, with what the shell asks of it: how many pipelines
/// read it now (a run subscribed to a pipeline starting with `c`, until it ends or is cancelled)
/// and whether `c.finish` ended it.
final class ChannelBox: Sendable {
    let channel = AsyncChannel<Value>()
    private let readerCount = Atomic<Int>(0)
    private let finishedFlag = Atomic<Bool>(false)

    /// The pipelines subscribed to the channel now.
    var readers: Int { readerCount.load(ordering: .acquiring) }
    /// True once `c.finish` ran.
    var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }

    /// The channel as the sequence async stages build over (each use iterates it anew; each
    /// element goes to one iterator, as the package's guide says of several consumers).
    var sequence: AsyncValues { AsyncValues(channel) }

    /// Ends the channel: every reader's iteration ends, later ones end at once.
    func finish() {
        finishedFlag.store(true, ordering: .releasing)
        channel.finish()
    }

    /// `publisher`, counted as a reader of the channel from its subscription until it completes
    /// or is cancelled: what a send in a script reads to know nobody will ever take its value.
    func countingReaders(_ publisher: ValuePublisher) -> ValuePublisher {
        ValueStream(
            Deferred { [self] () -> Publishers.HandleEvents<ValuePublisher> in
                let reader = Reader(self)
                return publisher.handleEvents(receiveCompletion: { _ in reader.end() }, receiveCancel: { reader.end() })
            })
    }

    /// One subscription reading the channel; `end()` counts it out once.
    private final class Reader: Sendable {
        private let box: ChannelBox
        private let ended = Atomic<Bool>(false)

        init(_ box: ChannelBox) {
            self.box = box
            box.readerCount.add(1, ordering: .acquiringAndReleasing)
        }

        func end() {
            guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
            box.readerCount.subtract(1, ordering: .acquiringAndReleasing)
        }

        deinit { end() }
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
    private let value: Value
    private let box: ChannelBox
    private let runtime: Runtime
    private let source: SourceText
    private let span: Span
    private let task = Lock<Task<Void, Never>?>(nil)
    /// 0 while the send waits, 1 once a reader took the value, 2 when it was cancelled.
    private let outcome = Atomic<Int>(0)

    init(name: String, value: Value, box: ChannelBox, runtime: Runtime, source: SourceText, span: Span) {
        self.name = name
        self.value = value
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
    public var isDone: Bool { outcome.load(ordering: .acquiring) != 0 }
    /// True once a reader took the value.
    public var wasTaken: Bool { outcome.load(ordering: .acquiring) == 1 }

    /// Starts the send in a task (on the virtual clock, on the runtime's executor: one timeline
    /// with the readers); `onEnd` is called once it returns, on the task's thread.
    public func start(onEnd: @escaping @Sendable () -> Void) {
        let (channel, value) = (box.channel, value)
        let sending = Task(executorPreference: runtime.taskExecutor) { [self] in
            await channel.send(value)
            outcome.store(Task.isCancelled ? 2 : 1, ordering: .releasing)
            onEnd()
        }
        task.withLock { $0 = sending }
    }

    /// Cancels the waiting send: its value is dropped and the channel stays open (the package's
    /// `send` returns when its task is cancelled).
    public func cancel() {
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
