/// The `marble` source's publisher: cold, so each subscription plays the string from its own
/// subscription time, on the runtime's scheduler (virtual or real).
enum Marbles {
    /// A frame is 100 ms unless `frame:` says otherwise.
    static let defaultFrame: Int64 = 100_000_000

    static func publisher(_ frames: [[MarbleNotation.Token]], frame: Int64, failure: PipelineError, runtime: Runtime) -> ValuePublisher {
        Deferred {
            let subject = PassthroughSubject<Value, any Error>()
            // Only frames with something in them are scheduled: `-` is time passing, not an action.
            for (index, tokens) in frames.enumerated() where !tokens.isEmpty {
                let (time, overflow) = Int64(index).multipliedReportingOverflow(by: frame)
                if overflow { break }
                runtime.schedule(afterNanoseconds: time) {
                    for token in tokens {
                        switch token {
                        case .value(let v): subject.send(v)
                        case .finished: subject.send(completion: .finished)
                        case .failed: subject.send(completion: .failure(failure))
                        }
                    }
                }
            }
            // The buffer keeps what demand has not asked for yet, as a cold publisher would.
            return subject.buffer(size: Limits.maxArrayCount, prefetch: .keepFull, whenFull: .dropNewest)
        }.valueStream()
    }
}
