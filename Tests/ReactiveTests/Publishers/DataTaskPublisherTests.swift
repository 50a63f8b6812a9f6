import Foundation
import Reactive
import ReactiveTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A one-file HTTP/1.1 server on 127.0.0.1 for these tests: nothing reaches the network.
///
/// `/hello` answers 200 with "hello", `/missing` answers 404 with "no such page", `/echo` answers
/// 200 with the request's `X-Probe` header, `/hang` reads the request and answers nothing, so the
/// test can see the client close the connection.
private final class LoopbackHTTPServer: @unchecked Sendable {
    // @unchecked: the counters are guarded by `lock`; the listening socket is written once in init.
    private let listener: Int32
    let port: UInt16
    private let lock = NSLock()
    private var requests: [String] = []
    private var closedHangs = 0

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The request lines served so far (`GET /hello HTTP/1.1`).
    var requestLines: [String] { lock.withLock { requests } }
    /// How many `/hang` connections the client has closed.
    var hangsClosed: Int { lock.withLock { closedHangs } }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Stops accepting (the accept loop ends on the closed socket).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.containsHeaderEnd {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            received += buffer[0..<count]
        }
        let head = String(decoding: received, as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.first ?? ""
        lock.withLock { requests.append(requestLine) }
        let path = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        switch path {
        case "/hello":
            respond(connection, status: "200 OK", body: "hello")
        case "/echo":
            let probe = lines.first { $0.lowercased().hasPrefix("x-probe:") }?.dropFirst("x-probe:".count)
            respond(connection, status: "200 OK", body: probe.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
        case "/hang":
            // Wait for the client to give up: read returns 0 (or fails) when it closes.
            while read(connection, &buffer, buffer.count) > 0 {}
            lock.withLock { closedHangs += 1 }
        default:
            respond(connection, status: "404 Not Found", body: "no such page")
        }
    }

    private func respond(_ connection: Int32, status: String, body: String) {
        let text = "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
    }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        return (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}

/// What a subscriber to a data task publisher saw, for tests that wait on another thread.
private final class TaskOutcome: @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = NSLock()
    private var _body: String?
    private var _status: Int?
    private var _completion: Subscribers.Completion<URLError>?

    var body: String? { lock.withLock { _body } }
    var status: Int? { lock.withLock { _status } }
    var completion: Subscribers.Completion<URLError>? { lock.withLock { _completion } }
    var finished: Bool {
        if case .finished = completion { return true }
        return false
    }

    func value(_ output: URLSession.DataTaskPublisher.Output) {
        lock.withLock {
            _body = String(decoding: output.data, as: UTF8.self)
            _status = (output.response as? HTTPURLResponse)?.statusCode
        }
    }

    func complete(_ completion: Subscribers.Completion<URLError>) { lock.withLock { _completion = completion } }
}

/// Polls `condition` every 10 ms for up to `seconds`.
private func waitUntil(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(10_000)
    }
    return true
}

// Issue 41: Combine's `URLSession.dataTaskPublisher(for:)` (URL and URLRequest forms), on Linux.
// Facts from Combine's documentation of `URLSession.DataTaskPublisher`: its Output is
// `(data: Data, response: URLResponse)`, its Failure `URLError`; the publisher "publishes data
// when the task completes, or terminates if the task fails with an error" (an HTTP error status is
// a response, not a failure); cancelling the subscription cancels the task.
@Suite("URLSession.dataTaskPublisher against a loopback server", .serialized)
struct DataTaskPublisherTests {
    private let session = URLSession(configuration: .ephemeral)

    @Test("the URL form publishes (data, response) and finishes")
    func urlForm() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let outcome = TaskOutcome()
        let cancellable = session.dataTaskPublisher(for: server.url("/hello"))
            .sink(receiveCompletion: { outcome.complete($0) }, receiveValue: { outcome.value($0) })
        #expect(waitUntil { outcome.completion != nil })
        #expect(outcome.body == "hello")
        #expect(outcome.status == 200)
        #expect(outcome.finished)
        cancellable.cancel()
    }

    @Test("the URLRequest form sends the request as given; an HTTP 404 is a value, not a failure")
    func requestForm() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/echo"))
        request.setValue("probe-41", forHTTPHeaderField: "X-Probe")
        let echoed = TaskOutcome()
        let first = session.dataTaskPublisher(for: request)
            .sink(receiveCompletion: { echoed.complete($0) }, receiveValue: { echoed.value($0) })
        let missing = TaskOutcome()
        let second = session.dataTaskPublisher(for: URLRequest(url: server.url("/missing")))
            .sink(receiveCompletion: { missing.complete($0) }, receiveValue: { missing.value($0) })
        #expect(waitUntil { echoed.completion != nil && missing.completion != nil })
        #expect(echoed.body == "probe-41")
        #expect(missing.status == 404)
        #expect(missing.body == "no such page")
        #expect(missing.finished)
        first.cancel()
        second.cancel()
    }

    @Test("no request is sent before demand; the first demand starts the task")
    func demandStartsTheTask() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: .none)
        session.dataTaskPublisher(for: server.url("/hello")).subscribe(subscriber)
        usleep(300_000)
        #expect(server.requestLines.isEmpty)
        subscriber.request(.max(1))
        #expect(waitUntil { subscriber.completion != nil })
        #expect(server.requestLines == ["GET /hello HTTP/1.1"])
        #expect(subscriber.values.map { String(decoding: $0.data, as: UTF8.self) } == ["hello"])
    }

    @Test("cancelling the subscription cancels the task: the connection closes and nothing is delivered")
    func cancelCancelsTheTask() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let outcome = TaskOutcome()
        let cancellable = session.dataTaskPublisher(for: server.url("/hang"))
            .sink(receiveCompletion: { outcome.complete($0) }, receiveValue: { outcome.value($0) })
        #expect(waitUntil { server.requestLines.count == 1 })
        cancellable.cancel()
        #expect(waitUntil { server.hangsClosed == 1 })
        usleep(100_000)
        #expect(outcome.completion == nil)
        #expect(outcome.body == nil)
    }

    @Test("a refused connection fails with a URLError")
    func refusedConnectionFails() throws {
        let server = try LoopbackHTTPServer()
        let url = server.url("/hello")
        server.stop()
        usleep(50_000)
        let outcome = TaskOutcome()
        let cancellable = session.dataTaskPublisher(for: url)
            .sink(receiveCompletion: { outcome.complete($0) }, receiveValue: { outcome.value($0) })
        #expect(waitUntil { outcome.completion != nil })
        guard case .failure(let error) = outcome.completion else {
            Issue.record("expected a failure, got \(String(describing: outcome.completion))")
            return
        }
        #expect([URLError.Code.cannotConnectToHost, .networkConnectionLost, .timedOut].contains(error.code))
        #expect(outcome.body == nil)
        cancellable.cancel()
    }
}
