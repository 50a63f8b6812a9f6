/// A publisher that replays a recorded list of values, then a recorded completion, to each subscriber.
///
/// Values are sent as demand arrives; the completion follows the last value without waiting for
/// demand.
///
/// ```swift
/// let replay = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
/// let recorded = Record<Int, Never> { recording in
///     recording.receive(1)
///     recording.receive(completion: .finished)
/// }
/// ```
public struct Record<Output, Failure: Error>: Publisher {
    /// What a `Record` replays: values, then a completion.
    public struct Recording {
        public typealias Input = Output

        /// The recorded values, in order.
        public private(set) var output: [Output]
        /// The recorded completion (`.finished` if none was recorded).
        public private(set) var completion: Subscribers.Completion<Failure>
        private var isCompleted: Bool

        /// An empty recording, ready to receive values.
        public init() {
            output = []
            completion = .finished
            isCompleted = false
        }

        /// A complete recording of `output` followed by `completion`.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isCompleted = true
        }

        /// Records a value. Ignored once a completion was recorded (Combine traps; a shell must not).
        public mutating func receive(_ input: Output) {
            guard !isCompleted else { return }
            output.append(input)
        }

        /// Records the completion. Only the first one counts.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            guard !isCompleted else { return }
            self.completion = completion
            isCompleted = true
        }
    }

    /// The recording replayed to each subscriber.
    public let recording: Recording

    /// Creates a record by filling in a recording.
    /// - Parameter record: Receives an empty recording to add values and a completion to.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a record from an existing recording.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record of `output` followed by `completion`.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        recording = Recording(output: output, completion: completion)
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if recording.output.isEmpty {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
        } else {
            subscriber.receive(subscription: RecordSubscription(downstream: subscriber, output: recording.output, completion: recording.completion))
        }
    }
}

extension Record.Recording: Sendable where Output: Sendable {}
extension Record: Sendable where Output: Sendable {}

/// Replays values on demand, then the completion. One thread at a time is the emitter
/// (`emitting == true`); a `request` from inside `receive` only adds demand, so it never recurses.
@usableFromInline
final class RecordSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline let output: [Downstream.Input]
    @usableFromInline let completion: Subscribers.Completion<Downstream.Failure>
    @usableFromInline @exclusivity(unchecked) var index = 0
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var emitting = false

    @inlinable
    init(downstream: Downstream, output: [Downstream.Input], completion: Subscribers.Completion<Downstream.Failure>) {
        self.downstream = downstream
        self.output = output
        self.completion = completion
    }

    @usableFromInline var description: String { "Record" }

    @usableFromInline
    enum Step {
        case value(Downstream, Downstream.Input)
        case finish(Downstream)
        case stop
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let start = lock.guarded { () -> Bool in
            guard downstream != nil else { return false }
            demand += more
            if emitting { return false }
            emitting = true
            return true
        }
        guard start else { return }
        var returned = Subscribers.Demand.none
        while true {
            let step = lock.guarded { () -> Step in
                demand += returned
                guard let downstream else {
                    emitting = false
                    return .stop
                }
                if index == output.count {
                    self.downstream = nil
                    emitting = false
                    return .finish(downstream)
                }
                guard demand > 0 else {
                    emitting = false
                    return .stop
                }
                demand -= 1
                let value = output[index]
                index += 1
                return .value(downstream, value)
            }
            switch step {
            case .value(let target, let value):
                returned = target.receive(value)
            case .finish(let target):
                target.receive(completion: completion)
                return
            case .stop:
                return
            }
        }
    }

    @inlinable
    func cancel() {
        let released = lock.guarded { () -> Downstream? in
            let released = downstream
            downstream = nil
            return released
        }
        withExtendedLifetime(released) {}
    }
}
