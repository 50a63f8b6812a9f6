import Dispatch
import Testing
import Reactive
import ReactiveTestSupport

private let queueKey = DispatchSpecificKey<String>()

/// A queue that can tell whether the current code runs on it.
private func labelledQueue(_ label: String) -> DispatchQueue {
    let queue = DispatchQueue(label: label)
    queue.setSpecific(key: queueKey, value: label)
    return queue
}

private func process(_ value: Int) async throws -> Int {
    if value < 0 { throw TestError("negative") }
    return value * 2
}

@Suite("Bridges: Task completion-handler initialisers")
struct TaskCompletionTests {
    @Test("C46 a value-returning operation calls its completion once, on the queue, with the value")
    func valueCompletion() async {
        let queue = labelledQueue("values")
        let calls = Counter()
        let result = await withCheckedContinuation { (done: CheckedContinuation<(Result<Int, any Error>, String?), Never>) in
            Task(operation: { try await process(21) }, queue: queue) { result in
                calls.increment()
                done.resume(returning: (result, DispatchQueue.getSpecific(key: queueKey)))
            }
        }
        #expect((try? result.0.get()) == 42)
        #expect(result.1 == "values")
        queue.sync {}
        #expect(calls.value == 1)
    }

    @Test("C46 a throwing operation delivers its error as a failure")
    func valueFailure() async {
        let queue = labelledQueue("failures")
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Int, any Error>, Never>) in
            Task(operation: { try await process(-1) }, queue: queue) { done.resume(returning: $0) }
        }
        #expect(throws: TestError("negative")) { try result.get() }
    }

    @Test("C46 a throwing Void operation reports nil or the error, once, on the queue")
    func errorCompletion() async {
        let queue = labelledQueue("errors")
        let ok = await withCheckedContinuation { (done: CheckedContinuation<(Bool, String?), Never>) in
            Task(operation: { _ = try await process(1) }, queue: queue) { (error: (any Error)?) in
                done.resume(returning: (error == nil, DispatchQueue.getSpecific(key: queueKey)))
            }
        }
        #expect(ok.0)
        #expect(ok.1 == "errors")
        let failed = await withCheckedContinuation { (done: CheckedContinuation<(any Error)?, Never>) in
            Task(operation: { _ = try await process(-1) }, queue: queue) { (error: (any Error)?) in
                done.resume(returning: error)
            }
        }
        #expect(failed is TestError)
    }

    @Test("C46 a non-throwing operation calls its completion once, on the queue, after it ran")
    func plainCompletion() async {
        let queue = labelledQueue("plain")
        let log = BridgeLog()
        let label = await withCheckedContinuation { (done: CheckedContinuation<String?, Never>) in
            Task(operation: { log.append("ran") }, queue: queue) {
                log.append("completed")
                done.resume(returning: DispatchQueue.getSpecific(key: queueKey))
            }
        }
        #expect(label == "plain")
        queue.sync {}
        #expect(log.all == ["ran", "completed"])
    }

    @Test("C46 a cancelled task still completes exactly once, with CancellationError")
    func cancelled() async {
        let queue = labelledQueue("cancel")
        let calls = Counter()
        let gates = Gates()
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Int, any Error>, Never>) in
            let task = Task(
                operation: { () async throws -> Int in
                    await gates.wait(1)
                    try Task.checkCancellation()
                    return 1
                }, queue: queue
            ) { result in
                calls.increment()
                done.resume(returning: result)
            }
            task.cancel()
            gates.open(1)
        }
        #expect(throws: CancellationError.self) { try result.get() }
        queue.sync {}
        #expect(calls.value == 1)
    }
}
