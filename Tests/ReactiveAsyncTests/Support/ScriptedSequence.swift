/// A base sequence of fixed elements that then finishes or throws `failure`, with typed throws.
struct ScriptedSequence<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = TestError

    let elements: [Element]
    let failure: TestError?

    init(_ elements: [Element], thenFail failure: TestError? = nil) {
        self.elements = elements
        self.failure = failure
    }

    func makeAsyncIterator() -> Iterator { Iterator(elements: elements, failure: failure) }

    struct Iterator: AsyncIteratorProtocol {
        typealias Failure = TestError
        let elements: [Element]
        var failure: TestError?
        var index = 0

        mutating func next() async throws(TestError) -> Element? {
            try await next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Element? {
            if index < elements.count {
                index += 1
                return elements[index - 1]
            }
            if let failure {
                self.failure = nil
                throw failure
            }
            return nil
        }
    }
}

/// A base that never produces and never finishes until its consumer's task is cancelled.
func endlessStream() -> AsyncStream<Int> {
    AsyncStream.makeStream(of: Int.self).stream
}
