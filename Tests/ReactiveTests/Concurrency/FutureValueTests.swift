import Dispatch
import Reactive
import ReactiveTestSupport
import Testing

private struct Boom: Error, Equatable {}

@Suite("Future.value")
struct FutureValueTests {
    @Test("a fulfilled Future<_, Never> answers without try")
    func neverFails() async {
        let future = Future<Int, Never> { $0(.success(42)) }
        let value = await future.value
        #expect(value == 42)
        #expect(await future.value == 42)
    }

    @Test("a later promise resumes the waiting task")
    func later() async {
        let future = Future<String, Never> { promise in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { promise(.success("late")) }
        }
        #expect(await future.value == "late")
    }

    @Test("C04 a failure is thrown by the throwing value")
    func failure() async {
        let future = Future<Int, any Error> { $0(.failure(Boom())) }
        await #expect(throws: Boom.self) { try await future.value }
    }

    @Test("a success is returned by the throwing value")
    func success() async throws {
        let future = Future<Int, any Error> { $0(.success(7)) }
        #expect(try await future.value == 7)
    }

    @Test("C44 cancelling the awaiting task throws CancellationError; the future still delivers to others")
    func cancellation() async throws {
        let gate = Future<Int, any Error> { _ in }  // never fulfilled
        let task = Task { try await gate.value }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let sub = TestSubscriber<Int, any Error>()
        let fulfilled = Future<Int, any Error> { $0(.success(1)) }
        fulfilled.subscribe(sub)
        #expect(sub.values == [1])
    }
}
