import CMicroHTTPD
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP server on GNU libmicrohttpd: one polling thread per core-sized pool (`Limits.threads`,
/// epoll on Linux), bodies read whole up to the limit of the request's route (`BodyLimit`, asked
/// once the request's head is in, before the body is read), one log line per request.
///
/// Handlers never block: a run answers with a `ResponseStream` its own thread fills, and a
/// stream with nothing to send suspends its connection (libmicrohttpd's suspend/resume), so an
/// idle server-sent event stream costs a socket and a buffer, not a thread. libmicrohttpd's
/// thread-per-connection mode cannot suspend, which is why the pool is used.
///
/// libmicrohttpd calls back through C function pointers that capture nothing: the server passes
/// itself as their context (`Unmanaged`), and each request's state as the connection's
/// per-request pointer, released when libmicrohttpd says the request is done.
public final class HTTPServer: Sendable {
    public struct Limits: Sendable {
        /// Request bodies larger than this are refused with 413, whatever a route allows.
        public var maxBody = 64 * 1024
        /// Open connections at most (live event streams count), and per client address: a
        /// quarter of them, so that a flood of connections needs four addresses to fill the room,
        /// and one from two addresses leaves half of it to everyone else.
        /// libmicrohttpd 0.9.75 keeps a connection whose client sent part of a request and then
        /// closed (CLOSE-WAIT) until its timeout passes, in every threading mode (measured: 70 of
        /// 100 such connections still open 8 s later): `headerSeconds` keeps that short.
        public var connections: UInt32 = 2048
        public var connectionsPerAddress: UInt32 = 512
        /// A connection that has not sent its first whole request head (request line and
        /// headers) this long after it opened is closed (browsers send theirs at once).
        public var headerSeconds: UInt32 = 10
        /// A connection idle this long once its request head is in is closed (a slow client
        /// cannot hold it). A parked stream is not idle: its keep-alive comments reset the clock.
        public var idleSeconds: UInt32 = 30
        /// libmicrohttpd's polling threads.
        public var threads: UInt32 = UInt32(max(2, min(8, ProcessInfo.processInfo.activeProcessorCount)))
        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The largest body one request may send, and what to call the route it is the limit of in
    /// the 413 that refuses a larger one.
    public struct BodyLimit: Sendable, Equatable {
        public var bytes: Int
        /// The route, as the refusal names it (`POST /api/run`).
        public var route: String

        public init(bytes: Int, route: String) {
            self.bytes = bytes
            self.route = route
        }

        /// The refusal's message: the limit and the route it is the limit of.
        public var refusal: String {
            if bytes == 0 { return "\(route) takes no request body" }
            let size = bytes % 1024 == 0 ? "\(bytes / 1024) KiB" : "\(bytes) bytes"
            return "the request body is larger than \(size), the limit for \(route)"
        }
    }

    /// A request's body limit from its method and path, asked before the body is read.
    public typealias BodyLimits = @Sendable (_ method: String, _ path: String) -> BodyLimit

    let handler: Handler
    let limits: Limits
    let bodyLimits: BodyLimits
    /// Told one line per request, with the client's path as sent (see `logShortened`).
    let log: @Sendable (String) -> Void
    /// The daemon, set once after starting; libmicrohttpd's handle is used from any thread.
    private let daemon = LockedState<DaemonHandle?>(nil)
    /// Streamed bodies being sent, so that `stop` can end them (a suspended connection must be
    /// resumed before libmicrohttpd stops), and whether the server is stopping.
    let streams = LockedState(StreamTable())

    /// The port it listens on (the one the system chose when asked for 0).
    public let port: UInt16

    /// Starts listening on `host:port`: IPv4 or IPv6 text (`127.0.0.1`, `0.0.0.0`, `::1`, `::`),
    /// or `localhost` (127.0.0.1). `::` listens on every IPv6 and IPv4 address. `bodyLimits`
    /// gives each request's body limit (at most `limits.maxBody`); without it every request may
    /// send `limits.maxBody`.
    /// - Throws: `ServerError` when the address is not one, or the port cannot be had.
    public init(
        host: String, port: UInt16, limits: Limits = Limits(), bodyLimits: BodyLimits? = nil, log: @escaping @Sendable (String) -> Void,
        handler: @escaping Handler
    ) throws {
        self.handler = handler
        self.limits = limits
        let maxBody = limits.maxBody
        self.bodyLimits = bodyLimits ?? { _, _ in BodyLimit(bytes: maxBody, route: "this server") }
        self.log = log
        guard let address = SocketAddress(host: host, port: port) else {
            throw ServerError(message: "--host needs an IPv4 or IPv6 address such as 127.0.0.1, 0.0.0.0, ::1 or ::, not '\(host)'")
        }
        self.port = port
        // A client or a child that goes away mid-write must be an error to handle, not a signal
        // that ends the room.
        signal(SIGPIPE, SIG_IGN)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = address.withPointer { pointer in
            plumb_mhd_start(
                pointer, address.isAny6 ? 1 : 0, accessHandler, context, requestCompleted, context, limits.connections, limits.connectionsPerAddress,
                min(limits.headerSeconds, limits.idleSeconds), 64 * 1024, limits.threads)
        }
        guard let started else {
            throw ServerError(message: "cannot listen on \(SocketAddress.display(host)):\(port) (is the port in use, or the address not this machine's?)")
        }
        daemon.withLock { $0 = DaemonHandle(pointer: started) }
    }

    /// How `host` is written in a URL: an IPv6 address in brackets (`[::1]`), others as given.
    public static func urlHost(_ host: String) -> String { SocketAddress.display(host) }

    /// Whether `host` is this machine's loopback (`127.0.0.1`, `localhost`, `::1`).
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
    }

    /// The body limit of a request to `method path`: its route's, never above `limits.maxBody`.
    func bodyLimit(method: String, path: String) -> BodyLimit {
        var limit = bodyLimits(method, path)
        limit.bytes = max(0, min(limit.bytes, limits.maxBody))
        return limit
    }

    /// The port actually bound.
    public var boundPort: UInt16 {
        daemon.withLock { d in d.map { plumb_mhd_port($0.pointer) } ?? 0 }
    }

    /// Live streamed bodies (event streams and runs being sent).
    public var openStreams: Int { streams.withLock { $0.open.count } }

    /// Stops listening and ends every connection: every streamed body is closed first (its
    /// client sees the end of the stream), and given up to `grace` seconds to be sent.
    public func stop(grace: Double = 2) {
        let open = streams.withLock { table -> [ResponseStream] in
            table.stopping = true
            return Array(table.open.values)
        }
        for stream in open { stream.close() }
        let deadline = Date(timeIntervalSinceNow: grace)
        while streams.withLock({ !$0.open.isEmpty }), Date() < deadline { usleep(10_000) }
        let handle = daemon.withLock { d -> DaemonHandle? in
            let h = d
            d = nil
            return h
        }
        if let handle { MHD_stop_daemon(handle.pointer) }
    }

    deinit { stop(grace: 0) }
}

/// The streamed bodies being sent, by identity.
struct StreamTable: Sendable {
    var open: [ObjectIdentifier: ResponseStream] = [:]
    var stopping = false
}

/// An IPv4 or IPv6 socket address from text.
struct SocketAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage
    /// `::`: every address, IPv6 and IPv4.
    let isAny6: Bool

    init?(host: String, port: UInt16) {
        let text = host == "localhost" ? "127.0.0.1" : host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = port.bigEndian
        if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
            storage = .v4(v4)
            isAny6 = false
            return
        }
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = port.bigEndian
        guard inet_pton(AF_INET6, text, &v6.sin6_addr) == 1 else { return nil }
        storage = .v6(v6)
        isAny6 = withUnsafeBytes(of: v6.sin6_addr) { $0.allSatisfy { $0 == 0 } }
    }

    func withPointer<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        switch storage {
        case .v4(var a): return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .v6(var a): return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }

    /// How a host is written in a URL: an IPv6 address in brackets (`[::1]`).
    static func display(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}

/// Why the server could not start.
public struct ServerError: Error, Sendable {
    public let message: String
}

/// libmicrohttpd's daemon pointer; its functions may be called from any thread.
struct DaemonHandle: @unchecked Sendable {  // a C handle libmicrohttpd makes thread-safe
    let pointer: OpaquePointer
}

/// One request's state across libmicrohttpd's calls: the body read so far, and what the log line
/// needs.
private final class RequestContext {
    let method: String
    let path: String
    let started = DispatchTime.now().uptimeNanoseconds
    /// The largest body this request may send (its route's).
    let bodyLimit: HTTPServer.BodyLimit
    var body: [UInt8] = []
    var status = 0
    var tooLarge = false

    init(method: String, path: String, bodyLimit: HTTPServer.BodyLimit) {
        self.method = method
        self.path = path
        self.bodyLimit = bodyLimit
    }
}

private func value(_ connection: OpaquePointer?, _ kind: MHD_ValueKind, _ name: String) -> String? {
    guard let pointer = MHD_lookup_connection_value(connection, kind, name) else { return nil }
    return String(cString: pointer)
}

private func send(_ response: HTTPResponse, on connection: OpaquePointer?, server: HTTPServer) -> MHD_Result {
    guard let connection else { return MHD_Result.NO }
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        made = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        stream.attach(connection)
        // A server that is stopping sends what the stream has and ends it.
        let stopping = server.streams.withLock { table -> Bool in
            if !table.stopping { table.open[ObjectIdentifier(stream)] = stream }
            return table.stopping
        }
        if stopping { stream.close() }
        let context = Unmanaged.passRetained(StreamContext(stream: stream, server: server)).toOpaque()
        made = MHD_create_response_from_callback(UInt64.max, 16 * 1024, streamReader, context, streamFreed)
        if made == nil { streamFreed(context) }
    }
    guard let made else { return MHD_Result.NO }
    for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
    for (name, value) in securityHeaders { MHD_add_response_header(made, name, value) }
    let result = MHD_queue_response(connection, UInt32(response.status), made)
    MHD_destroy_response(made)
    return result
}

/// What a streamed response's callbacks reach: the stream, and the server that lists it.
private final class StreamContext {
    let stream: ResponseStream
    let server: HTTPServer
    init(stream: ResponseStream, server: HTTPServer) {
        self.stream = stream
        self.server = server
    }
}

/// Sent with every response: no framing, no sniffing, scripts and styles only from this server.
private let securityHeaders: [(String, String)] = [
    (
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
]

private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return -2 }
    let stream = Unmanaged<StreamContext>.fromOpaque(context).takeUnretainedValue().stream
    return stream.read(into: buffer, max: max)
}

private let streamFreed: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let held = Unmanaged<StreamContext>.fromOpaque(context).takeRetainedValue()
    held.stream.abandon()
    _ = held.server.streams.withLock { $0.open.removeValue(forKey: ObjectIdentifier(held.stream)) }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, requestContext in
    guard let context, let requestContext, let uploadSize else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    guard let state = requestContext.pointee else {
        let methodText = method.map { String(cString: $0) } ?? "?"
        let path = url.map { String(cString: $0) } ?? "/"
        // The head is in: the route, and so its body limit, is known before the body is read.
        let request = RequestContext(method: methodText, path: path, bodyLimit: server.bodyLimit(method: methodText, path: path))
        requestContext.pointee = Unmanaged.passRetained(request).toOpaque()
        // From now on the connection has the idle limit, not the head's.
        if server.limits.idleSeconds > server.limits.headerSeconds { plumb_mhd_set_timeout(connection, server.limits.idleSeconds) }
        // A body announced larger than the route allows is refused before it is read.
        if let length = value(connection, .HEADER_KIND, "content-length").flatMap(Int.init), length > request.bodyLimit.bytes {
            request.status = 413
            return send(.error(413, request.bodyLimit.refusal), on: connection, server: server)
        }
        return .YES
    }
    let request = Unmanaged<RequestContext>.fromOpaque(state).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if request.body.count + uploadSize.pointee > request.bodyLimit.bytes || request.tooLarge {
            // A chunked body that grows too large: stop reading and close the connection.
            request.tooLarge = true
            request.status = 413
            return .NO
        }
        if let upload { request.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee)) }
        uploadSize.pointee = 0
        return .YES
    }
    if request.status != 0 { return .YES }
    var address = [CChar](repeating: 0, count: 64)
    plumb_mhd_client_address(connection, &address, address.count)
    var headers: [String: String] = [:]
    for name in HTTPRequest.headerNames { headers[name] = value(connection, .HEADER_KIND, name) }
    var query: [String: String] = [:]
    for name in HTTPRequest.queryNames { query[name] = value(connection, .GET_ARGUMENT_KIND, name) }
    let response = server.handler(
        HTTPRequest(
            method: request.method, path: request.path, query: query, headers: headers, body: request.body,
            client: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    request.status = response.status
    return send(response, on: connection, server: server)
}

private let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, _ in
    guard let context, let requestContext, let state = requestContext.pointee else { return }
    requestContext.pointee = nil
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let request = Unmanaged<RequestContext>.fromOpaque(state).takeRetainedValue()
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - request.started) / 1e6
    let status = request.status == 0 ? "-" : String(request.status)
    server.log("\(request.method) \(logShortened(request.path)) \(status) \(String(format: "%.1f", milliseconds)) ms")
}

/// A path as the log shows it: at most 200 characters, as sent. The log's line goes to whoever
/// reads it; one shown on a terminal is made safe there (`plumb serve`'s log passes every line
/// through the shell's `TerminalText`, which also covers C1 controls such as U+009B).
func logShortened(_ path: String) -> String {
    String(String.UnicodeScalarView(path.unicodeScalars.prefix(200)))
}
