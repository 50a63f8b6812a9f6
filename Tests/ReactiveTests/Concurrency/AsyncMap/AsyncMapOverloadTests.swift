import Testing
import Reactive
import ReactiveTestSupport

/// The failure type of a publisher, as the compiler resolved it.
private func failureType<P: Publisher>(of _: P) -> P.Failure.Type { P.Failure.self }

private func loadUser(_ id: Int) async throws -> String { "user \(id)" }
private func render(_ value: Int) async -> String { "image \(value)" }

@Suite("Bridges: asyncMap overloads resolve without annotations")
struct AsyncMapOverloadTests {
    @Test("a non-throwing closure picks the first form and keeps Failure == Never")
    func nonThrowingOnNever() {
        let mapped = Just(1).asyncMap { $0 * 2 }
        let _: Publishers.AsyncMap<Just<Int>, Int, Never> = mapped
        #expect(failureType(of: mapped) == Never.self)
        // The article's plain call site compiles as written.
        let cancellable = Just(1).asyncMap { $0 * 2 }.sink { _ in }
        cancellable.cancel()
    }

    @Test("a non-throwing closure keeps an upstream failure type")
    func nonThrowingKeepsFailure() {
        let mapped = ManualPublisher<Int, TestError>().asyncMap { await render($0) }
        let _: Publishers.AsyncMap<ManualPublisher<Int, TestError>, String, TestError> = mapped
        #expect(failureType(of: mapped) == TestError.self)
    }

    @Test("a throwing closure on a publisher failing with Error forwards to Failure == Error")
    func throwingOnError() {
        let upstream = Just(1).asyncMap { try await loadUser($0) }.eraseToAnyPublisher()
        let mapped = upstream.asyncMap { user in try await loadUser(user.count) }
        let _: Publishers.AsyncMap<AnyPublisher<String, any Error>, String, any Error> = mapped
        #expect(failureType(of: mapped) == (any Error).self)
    }

    @Test("a throwing closure on a publisher that cannot fail produces Failure == Error")
    func throwingOnNever() {
        let mapped = Just(1).asyncMap { try await loadUser($0) }
        let _: Publishers.AsyncMap<Just<Int>, String, any Error> = mapped
        #expect(failureType(of: mapped) == (any Error).self)
    }

    @Test("a multi-statement closure resolves as the article writes it")
    func multiStatement() {
        let mapped = Just(3).asyncMap { photo in
            let rendered = await render(photo)
            return rendered.count
        }
        #expect(failureType(of: mapped) == Never.self)
        let throwing = Just(3).asyncMap { photo in
            guard photo > 0 else { throw TestError() }
            let user = try await loadUser(photo)
            return user
        }
        #expect(failureType(of: throwing) == (any Error).self)
    }

    @Test("C47 asyncMap's publisher is Sendable when its upstream is, and its closures are @Sendable")
    func sendable() {
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(Just(1).asyncMap { $0 })
        let transform: @Sendable (Int) async -> Int = { $0 }
        requireSendable(transform)
        requireSendable([1].publisher.values)
    }
}
