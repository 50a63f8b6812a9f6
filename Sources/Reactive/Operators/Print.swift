extension Publisher {
    /// Prints a line for every event that passes through, as Combine's `print` does.
    ///
    /// Lines look like `prefix: receive value: (1)`, `prefix: request max: (2)`,
    /// `prefix: receive finished`, `prefix: receive cancel`.
    ///
    /// ```swift
    /// [1].publisher.print("numbers").sink { _ in }
    /// // numbers: receive subscription: ([1])
    /// // numbers: request unlimited
    /// // numbers: receive value: (1)
    /// // numbers: receive finished
    /// ```
    /// - Parameters:
    ///   - prefix: Text that starts every line (none when empty).
    ///   - stream: Where lines go; standard output when `nil`. Writes to it are serialised.
    @inlinable
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// The publisher `print(_:to:)` returns.
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are printed.
        public let upstream: Upstream
        /// Text that starts every line.
        public let prefix: String
        /// Where lines go; standard output when `nil`.
        public let stream: (any TextOutputStream)?

        @inlinable
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let printer = PrintStream(stream: stream, prefix: prefix)
            let hooks = EventHooks<Output, Failure>(
                receiveSubscription: { printer.write("receive subscription: (\($0))") },
                receiveOutput: { printer.write("receive value: (\($0))") },
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: printer.write("receive finished")
                    case .failure(let error): printer.write("receive error: (\(error))")
                    }
                },
                receiveCancel: { printer.write("receive cancel") },
                receiveRequest: { demand, synchronous in
                    let amount = demand.max.map { "max: (\($0))" } ?? "unlimited"
                    printer.write("request \(amount)" + (synchronous ? " (synchronous)" : ""))
                })
            upstream.receive(subscriber: EventSubscription(hooks: hooks, downstream: subscriber, name: "Print"))
        }
    }
}

/// One subscription's output stream; a lock keeps lines whole when events come from several
/// threads. It only writes text, so holding the lock around the write cannot re-enter a stage.
final class PrintStream: @unchecked Sendable {
    // @unchecked: `stream` is only touched under `lock`.
    private let lock = Lock()
    @exclusivity(unchecked) private var stream: (any TextOutputStream)?
    private let prefix: String

    init(stream: (any TextOutputStream)?, prefix: String) {
        self.stream = stream
        self.prefix = prefix.isEmpty ? "" : prefix + ": "
    }

    func write(_ text: String) {
        let line = prefix + text
        lock.guarded {
            if stream != nil {
                stream!.write(line + "\n")
            } else {
                Swift.print(line)
            }
        }
    }
}
