extension Publisher where Output: Sendable {
    /// Transforms every value with an `async` function, keeping this publisher's failure type.
    ///
    /// Transforms run in one long-lived task per subscription (never a task per value), only for
    /// values downstream has asked for: upstream is asked for at most `maxConcurrent` values
    /// beyond what has been emitted, so nothing is buffered without bound. Outputs come out in
    /// input order, also when `maxConcurrent > 1` lets several transforms run at once.
    /// Cancelling the subscription cancels the task, so a transform in flight sees
    /// `Task.isCancelled`; its result is dropped. An upstream failure is forwarded at once, as
    /// `flatMap` does, and cancels the transforms in flight; an upstream finish waits for them.
    ///
    /// ```swift
    /// photos.asyncMap { photo in await renderer.render(photo) }
    ///     .sink { image in show(image) }
    /// ```
    /// - Parameters:
    ///   - maxConcurrent: How many transforms may run at once (at least 1; default 1).
    ///   - executorPreference: The executor the task prefers (SE-0417); `nil` for the global
    ///     one. Pass a manually drained executor to run transforms deterministically.
    ///   - transform: The async function applied to each value.
    /// - Returns: A publisher of the transformed values.
    @inlinable
    public func asyncMap<T: Sendable>(
        maxConcurrent: Int = 1,
        executorPreference: (any TaskExecutor)? = nil,
        _ transform: @escaping @Sendable (Output) async -> T
    ) -> Publishers.AsyncMap<Self, T, Failure> {
        Publishers.AsyncMap(
            upstream: self, maxConcurrent: maxConcurrent, executorPreference: executorPreference,
            transform: { .success(await transform($0)) }, mapFailure: { $0 })
    }

    /// Transforms every value with a throwing `async` function; a thrown error fails the publisher.
    ///
    /// Behaves as the non-throwing `asyncMap(maxConcurrent:executorPreference:_:)`; an error
    /// thrown by `transform` is emitted in input order, after the outputs of earlier values, as
    /// the one `.failure`, and cancels upstream and the transforms still running.
    ///
    /// ```swift
    /// keychain.loadLoggedInUserID()          // AnyPublisher<String, Error>
    ///     .asyncMap { id in try await users.load(id) }
    /// ```
    /// - Parameters:
    ///   - maxConcurrent: How many transforms may run at once (at least 1; default 1).
    ///   - executorPreference: The executor the task prefers; `nil` for the global one.
    ///   - transform: The throwing async function applied to each value.
    /// - Returns: A publisher of the transformed values that fails with upstream's or `transform`'s error.
    @inlinable
    @_disfavoredOverload
    public func asyncMap<T: Sendable>(
        maxConcurrent: Int = 1,
        executorPreference: (any TaskExecutor)? = nil,
        _ transform: @escaping @Sendable (Output) async throws -> T
    ) -> Publishers.AsyncMap<Self, T, any Error> where Failure == any Error {
        Publishers.AsyncMap(
            upstream: self, maxConcurrent: maxConcurrent, executorPreference: executorPreference,
            transform: { input in
                do {
                    return .success(try await transform(input))
                } catch {
                    return .failure(error)
                }
            },
            mapFailure: { $0 })
    }

    /// Transforms every value of a publisher that cannot fail with a throwing `async` function;
    /// the result can fail with the thrown error.
    ///
    /// ```swift
    /// renderer.render(photo)                 // AnyPublisher<Image, Never>
    ///     .asyncMap { image in try await uploader.upload(image) }   // Failure == any Error
    /// ```
    /// - Parameters:
    ///   - maxConcurrent: How many transforms may run at once (at least 1; default 1).
    ///   - executorPreference: The executor the task prefers; `nil` for the global one.
    ///   - transform: The throwing async function applied to each value.
    /// - Returns: A publisher of the transformed values that fails with `transform`'s error.
    @inlinable
    @_disfavoredOverload
    public func asyncMap<T: Sendable>(
        maxConcurrent: Int = 1,
        executorPreference: (any TaskExecutor)? = nil,
        _ transform: @escaping @Sendable (Output) async throws -> T
    ) -> Publishers.AsyncMap<Self, T, any Error> where Failure == Never {
        Publishers.AsyncMap(
            upstream: self, maxConcurrent: maxConcurrent, executorPreference: executorPreference,
            transform: { input in
                do {
                    return .success(try await transform(input))
                } catch {
                    return .failure(error)
                }
            },
            mapFailure: neverFails)
    }
}

extension Publishers {
    /// The publisher `asyncMap` returns: each upstream value transformed by an async function,
    /// in order, in one long-lived task per subscription.
    public struct AsyncMap<Upstream: Publisher, Output: Sendable, Failure: Error>: Publisher
    where Upstream.Output: Sendable {
        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// How many transforms may run at once.
        public let maxConcurrent: Int
        /// The executor the transforms' task prefers; `nil` for the global executor.
        public let executorPreference: (any TaskExecutor)?
        @usableFromInline let transform: @Sendable (Upstream.Output) async -> Result<Output, Failure>
        @usableFromInline let mapFailure: @Sendable (Upstream.Failure) -> Failure

        @inlinable
        init(
            upstream: Upstream,
            maxConcurrent: Int,
            executorPreference: (any TaskExecutor)?,
            transform: @escaping @Sendable (Upstream.Output) async -> Result<Output, Failure>,
            mapFailure: @escaping @Sendable (Upstream.Failure) -> Failure
        ) {
            assert(maxConcurrent >= 1, "asyncMap: maxConcurrent must be at least 1")
            self.upstream = upstream
            self.maxConcurrent = Swift.max(1, maxConcurrent)
            self.executorPreference = executorPreference
            self.transform = transform
            self.mapFailure = mapFailure
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                AsyncMapStorage<Upstream, S>(
                    downstream: subscriber, maxConcurrent: maxConcurrent, executorPreference: executorPreference,
                    transform: transform, mapFailure: mapFailure))
        }
    }
}

extension Publishers.AsyncMap: Sendable where Upstream: Sendable {}

/// The failure conversion of a publisher that cannot fail.
@inlinable
@Sendable
func neverFails<E: Error>(_ never: Never) -> E {}
