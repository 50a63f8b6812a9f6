/// The Swift text of the helpers translations use, and of the program runner `--program` adds.
/// Each helper starts with a `// MARK: helper NAME` line, so programs can be merged by name.
extension SwiftHelper {
    /// The helpers a helper needs too.
    var requires: [SwiftHelper] {
        switch self {
        case .flaky: [.pipeError]
        case .marble: [.pipeError, .queue]
        default: []
        }
    }

    var text: String {
        switch self {
        case .pipeError:
            return """
                // MARK: helper pipeError
                /// A failure carrying the language's message (`fail "boom"`, `timeout … customError:`).
                struct PipeError: Error, CustomStringConvertible {
                    let description: String
                    init(_ message: String) { description = message }
                }
                """
        case .queue:
            return """
                // MARK: helper queue
                /// Where time-based operators run: a queue of our own (nothing serves the main queue here).
                let queue = DispatchQueue(label: "plumb")
                """
        case .marble:
            return """
                // MARK: helper marble
                /// One event of a marble string's frame.
                enum MarbleEvent<T: Sendable>: Sendable {
                    case value(T)
                    case finished
                    case failed(String)
                }

                /// `marble "-a-(bc)-|"`: a cold publisher playing each frame's events one frame apart,
                /// frame 0 at subscription; a buffer keeps what demand has not asked for yet.
                func marble<T: Sendable>(_ frames: [[MarbleEvent<T>]], frame nanoseconds: Int) -> AnyPublisher<T, Error> {
                    Deferred {
                        let subject = PassthroughSubject<T, Error>()
                        for (index, events) in frames.enumerated() where !events.isEmpty {
                            queue.asyncAfter(deadline: .now() + .nanoseconds(index * nanoseconds)) {
                                for event in events {
                                    switch event {
                                    case .value(let v): subject.send(v)
                                    case .finished: subject.send(completion: .finished)
                                    case .failed(let message): subject.send(completion: .failure(PipeError(message)))
                                    }
                                }
                            }
                        }
                        return subject.buffer(size: 100_000, prefetch: .keepFull, whenFull: .dropNewest)
                    }.eraseToAnyPublisher()
                }
                """
        case .completionMessage:
            return """
                // MARK: helper completionMessage
                extension Subscribers.Completion {
                    /// What `$0` is in a `receiveCompletion:` hook: "finished", or the failure's message.
                    var message: String {
                        switch self {
                        case .finished: "finished"
                        case .failure(let error): "\\(error)"
                        }
                    }
                }
                """
        case .stream:
            return """
                // MARK: helper stream
                extension Publisher where Output: Sendable {
                    /// `| stream`: reference article 002's bridge. A `sink` that asks for everything
                    /// yields into an `AsyncThrowingStream`, which buffers what the consumer has not
                    /// pulled yet (without bound by default); the consumer's end cancels the sink.
                    func stream(
                        bufferingPolicy policy: AsyncThrowingStream<Output, Error>.Continuation.BufferingPolicy = .unbounded
                    ) -> AsyncThrowingStream<Output, Error> {
                        AsyncThrowingStream(bufferingPolicy: policy) { continuation in
                            let subscription = StreamSubscription(
                                sink(
                                    receiveCompletion: { completion in
                                        switch completion {
                                        case .finished: continuation.finish()
                                        case .failure(let error): continuation.finish(throwing: error)
                                        }
                                    },
                                    receiveValue: { continuation.yield($0) }))
                            continuation.onTermination = { _ in subscription.cancel() }
                        }
                    }
                }

                /// The stream's sink, cancelled from its termination handler.
                final class StreamSubscription: @unchecked Sendable {
                    // @unchecked: `cancellable` is set once, before the handler can run; cancel() is thread-safe.
                    private let cancellable: AnyCancellable
                    init(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
                    func cancel() { cancellable.cancel() }
                }
                """
        case .flaky:
            return #"""
                // MARK: helper flaky
                /// `asyncMap flaky N`: fails its first N calls, counting across resubscriptions (`retry`).
                final class Flaky: @unchecked Sendable {
                    // @unchecked: `calls` is only touched under `lock`.
                    private let lock = NSLock()
                    private var calls = 0
                    private let failures: Int

                    init(failing failures: Int) { self.failures = failures }

                    /// Counts from the start again: a new run of a pipeline that holds it.
                    func reset() {
                        lock.lock()
                        calls = 0
                        lock.unlock()
                    }

                    func callAsFunction<T>(_ value: T) throws -> T {
                        lock.lock()
                        calls += 1
                        let call = calls
                        lock.unlock()
                        if call <= failures { throw PipeError("flaky failure \(call) of \(failures)") }
                        return value
                    }
                }
                """#
        }
    }

    /// `helpers` and what they need, in a fixed order, as text.
    static func text(of helpers: Set<SwiftHelper>) -> String {
        texts(of: helpers).joined(separator: "\n\n")
    }

    /// `helpers` and what they need, in a fixed order, each helper's text.
    static func texts(of helpers: Set<SwiftHelper>) -> [String] {
        var all = helpers
        for h in helpers { all.formUnion(h.requires) }
        return all.sorted().map(\.text)
    }

    /// What a `--program` adds: printing values as `plumb run` does, and running a pipeline to its
    /// completion (or cancelling it after a bound, for one that never completes).
    static let runner = #"""
        // MARK: helper runner
        /// A value as `plumb run` prints it: strings quoted, doubles with a decimal point.
        protocol PipeShowable { var pipeText: String { get } }
        extension Int: PipeShowable { var pipeText: String { String(self) } }
        extension Bool: PipeShowable { var pipeText: String { self ? "true" : "false" } }
        extension Never: PipeShowable { var pipeText: String { switch self {} } }
        extension Array: PipeShowable where Element: PipeShowable {
            var pipeText: String { "[" + map(\.pipeText).joined(separator: ", ") + "]" }
        }
        extension Double: PipeShowable {
            var pipeText: String {
                if isNaN { return "nan" }
                if isInfinite { return self < 0 ? "-inf" : "inf" }
                if self == rounded(), abs(self) < 1e15 { return "\(Int(self)).0" }
                return "\(self)"
            }
        }
        extension String: PipeShowable {
            var pipeText: String {
                var out = "\""
                for scalar in unicodeScalars {
                    switch scalar {
                    case "\"": out += "\\\""
                    case "\\": out += "\\\\"
                    case "\n": out += "\\n"
                    case "\t": out += "\\t"
                    case "\r": out += "\\r"
                    case "\0": out += "\\0"
                    default:
                        if scalar.value < 0x20 || scalar.value == 0x7F {
                            out += "\\u{\(String(scalar.value, radix: 16))}"
                        } else {
                            out.unicodeScalars.append(scalar)
                        }
                    }
                }
                return out + "\""
            }
        }

        /// Subscribes, prints each event, and waits for the completion: at most `seconds`, then cancels.
        func run<P: Publisher>(_ publisher: P, within seconds: Double = 3, show: @escaping (P.Output) -> String) {
            let done = DispatchSemaphore(value: 0)
            let subscription = publisher.sink(
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: print("finished")
                    case .failure(let error): print("failed: \(error)")
                    }
                    done.signal()
                },
                receiveValue: { print("value \(show($0))") })
            if done.wait(timeout: .now() + seconds) == .timedOut {
                subscription.cancel()
                print("cancelled")
            }
        }

        func run<P: Publisher>(_ publisher: P, within seconds: Double = 3) where P.Output: PipeShowable {
            run(publisher, within: seconds) { $0.pipeText }
        }

        /// Hands a value to a task, which is its only user from then on.
        struct Handover<T>: @unchecked Sendable {
            // @unchecked: the sender never touches the value again.
            let value: T
            init(_ value: T) { self.value = value }
        }

        /// Background jobs (`… &`): each running one is in `jobsRunning` until it completes.
        let jobsRunning = DispatchGroup()

        /// `… &`: subscribes and returns at once; events print with the job's number, as plumb's jobs do.
        func start<P: Publisher>(_ publisher: P, job: Int, show: @escaping (P.Output) -> String) -> AnyCancellable {
            jobsRunning.enter()
            return publisher.sink(
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: print("[\(job)] finished")
                    case .failure(let error): print("[\(job)] failed: \(error)")
                    }
                    jobsRunning.leave()
                },
                receiveValue: { print("[\(job)] value \(show($0))") })
        }

        func start<P: Publisher>(_ publisher: P, job: Int) -> AnyCancellable where P.Output: PipeShowable {
            start(publisher, job: job) { $0.pipeText }
        }

        /// Waits for the background jobs to complete: at most `seconds`.
        func waitForJobs(within seconds: Double = 3) {
            _ = jobsRunning.wait(timeout: .now() + seconds)
        }

        /// Runs `body` on `value` in a task, the value's only user from then on, printing
        /// `finished` or `failed: …` when it returns or throws; waits for the task at most `seconds`,
        /// then cancels it and prints `cancelled`. `value` is made by the caller before the task
        /// starts: a closure the task called to make it crashed the program 4 times in 10 (a release
        /// of what the closure captured, at the caller's end; Swift 6.3.1).
        func awaitTask<T>(_ value: T, within seconds: Double, _ body: @escaping (T) async throws -> Void) {
            let done = DispatchSemaphore(value: 0)
            let handed = Handover((value, body))
            let task = Task {
                let (value, body) = handed.value
                do {
                    try await body(value)
                    print("finished")
                } catch {
                    print("failed: \(error)")
                }
                done.signal()
            }
            if done.wait(timeout: .now() + seconds) == .timedOut {
                task.cancel()
                print("cancelled")
            }
        }

        /// `| values`: consumes through `for try await` (each value printed as `next`, as plumb does).
        func runValues<P: Publisher>(_ publisher: P, within seconds: Double = 3) where P.Output: PipeShowable & Sendable {
            awaitTask(publisher, within: seconds) { publisher in
                for try await value in publisher.values { print("next \(value.pipeText)") }
            }
        }

        /// An async pipeline (after `.values` or `stream`): iterates the sequence `make` builds (on
        /// the caller's thread) in a task, printing each element as `value` and then its end, as
        /// plumb prints the events of a pipeline that ends on the async side; cancels the task after
        /// `seconds`.
        func runSequence<S: AsyncSequence>(within seconds: Double = 3, show: @escaping (S.Element) -> String, _ make: @escaping () -> S) {
            awaitTask((make(), show), within: seconds) { made in
                let (sequence, show) = made
                for try await value in sequence { print("value \(show(value))") }
            }
        }

        func runSequence<S: AsyncSequence>(within seconds: Double = 3, _ make: @escaping () -> S) where S.Element: PipeShowable {
            runSequence(within: seconds, show: { $0.pipeText }, make)
        }

        /// `| async`: awaits the first value, then waits as `run` does.
        func runAsync<P: Publisher>(_ publisher: P, within seconds: Double = 3) where P.Output: PipeShowable & Sendable {
            awaitTask(publisher, within: seconds) { publisher in
                let value = try await publisher.async()
                print("value \(value.pipeText)")
            }
        }
        """#
}
