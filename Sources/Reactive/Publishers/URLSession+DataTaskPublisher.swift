import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// A publisher that loads `url` with a data task: Combine's `dataTaskPublisher(for:)`.
    ///
    /// The task starts on the first demand and publishes one `(data, response)` pair, then
    /// finishes; any HTTP status is a value, only a transport error fails (with a `URLError`).
    /// Cancelling the subscription cancels the task.
    ///
    /// ```swift
    /// let cancellable = URLSession.shared.dataTaskPublisher(for: url)
    ///     .map(\.data)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.count, "bytes") })
    /// ```
    ///
    /// - Parameter url: The URL to load.
    /// - Returns: A publisher of the task's data and response.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher that performs `request` with a data task (see `dataTaskPublisher(for:)` with
    /// a URL).
    ///
    /// - Parameter request: The request to perform (method, headers and body as given).
    /// - Returns: A publisher of the task's data and response.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// The publisher `dataTaskPublisher(for:)` returns: one data task per subscription.
    public struct DataTaskPublisher: Publisher, Sendable {
        public typealias Output = (data: Data, response: URLResponse)
        public typealias Failure = URLError

        /// The request each subscription performs.
        public let request: URLRequest
        /// The session that runs the tasks.
        public let session: URLSession

        /// Creates a publisher that performs `request` on `session`.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: DataTaskSubscription(request: request, session: session, downstream: subscriber))
        }
    }
}

/// Starts the task on the first demand, delivers its one result and cancels it on `cancel()`.
final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskFinishing, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    // @unchecked: every stored var is read and written only under `lock`; the task's completion handler reaches them through it.
    private enum State {
        case waitingForDemand(Downstream)
        case running(URLSessionDataTask, Downstream)
        case done
    }

    private let lock = Lock()
    private var state: State
    private let request: URLRequest
    private let session: URLSession

    init(request: URLRequest, session: URLSession, downstream: Downstream) {
        self.request = request
        self.session = session
        state = .waitingForDemand(downstream)
    }

    var description: String { "DataTaskPublisher" }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        // Made outside the lock (the session is called), stored under it, started after it.
        let started = lock.guarded { () -> Bool in
            if case .waitingForDemand = state { return true }
            return false
        }
        guard started else { return }
        // The handler keeps the subscription until the task ends; `finish` and `cancel` drop the
        // task, which drops the handler, so nothing outlives the request.
        let task = session.dataTask(with: request, completionHandler: dataTaskCompletion(self))
        let stored = lock.guarded { () -> Bool in
            guard case .waitingForDemand(let downstream) = state else { return false }
            state = .running(task, downstream)
            return true
        }
        if stored { task.resume() }
    }

    func cancel() {
        let task = lock.guarded { () -> URLSessionDataTask? in
            defer { state = .done }
            if case .running(let task, _) = state { return task }
            return nil
        }
        task?.cancel()
    }

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        let downstream = lock.guarded { () -> Downstream? in
            guard case .running(_, let downstream) = state else { return nil }
            state = .done
            return downstream
        }
        guard let downstream else { return }
        if let error {
            downstream.receive(completion: .failure(Self.urlError(error)))
        } else if let response {
            _ = downstream.receive((data: data ?? Data(), response: response))
            downstream.receive(completion: .finished)
        } else {
            downstream.receive(completion: .failure(URLError(.badServerResponse)))
        }
    }

    /// The task's error as a `URLError` (FoundationNetworking reports `NSURLErrorDomain` errors).
    private static func urlError(_ error: any Error) -> URLError {
        if let error = error as? URLError { return error }
        let error = error as NSError
        guard error.domain == NSURLErrorDomain else { return URLError(.unknown, userInfo: error.userInfo) }
        return URLError(URLError.Code(rawValue: error.code) ?? .unknown, userInfo: error.userInfo)
    }
}

/// What a data task's completion handler reports to.
private protocol DataTaskFinishing: AnyObject, Sendable {
    func finish(data: Data?, response: URLResponse?, error: (any Error)?)
}

/// The task's completion handler, built outside any generic context so that it captures no
/// generic metatypes (the subscription is reached through the protocol).
private func dataTaskCompletion(_ target: any DataTaskFinishing) -> @Sendable (Data?, URLResponse?, (any Error)?) -> Void {
    { data, response, error in target.finish(data: data, response: response, error: error) }
}
