import CMicroHTTPD
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP server on GNU libmicrohttpd: one thread per connection (a handler may block while a
/// run streams), bodies read whole up to `Limits.maxBody`, one log line per request.
///
/// libmicrohttpd calls back through C function pointers that capture nothing: the server passes
/// itself as their context (`Unmanaged`), and each request's state as the connection's
/// per-request pointer, released when libmicrohttpd says the request is done.
public final class HTTPServer: Sendable {
    public struct Limits: Sendable {
        /// Request bodies larger than this are refused with 413.
        public var maxBody = 64 * 1024
        public var connections: UInt32 = 256
        public var connectionsPerAddress: UInt32 = 128
        /// A connection idle this long is closed (a slow client cannot hold a thread).
        public var idleSeconds: UInt32 = 30
        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    let handler: Handler
    let limits: Limits
    let log: @Sendable (String) -> Void
    /// The daemon, set once after starting; libmicrohttpd's handle is used from any thread.
    private let daemon = LockedState<DaemonHandle?>(nil)

    /// The port it listens on (the one the system chose when asked for 0).
    public let port: UInt16

    /// Starts listening on `host:port` (IPv4 text, or `localhost`).
    /// - Throws: `ServerError` when the address is not one, or the port cannot be had.
    public init(host: String, port: UInt16, limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void, handler: @escaping Handler) throws {
        self.handler = handler
        self.limits = limits
        self.log = log
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        let text = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else {
            throw ServerError(message: "--host needs an IPv4 address such as 127.0.0.1 or 0.0.0.0, not '\(host)'")
        }
        self.port = port
        // A client or a child that goes away mid-write must be an error to handle, not a signal
        // that ends the room.
        signal(SIGPIPE, SIG_IGN)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = withUnsafePointer(to: &address) {
            plumb_mhd_start(
                $0, accessHandler, context, requestCompleted, context, limits.connections, limits.connectionsPerAddress, limits.idleSeconds, 64 * 1024)
        }
        guard let started else {
            throw ServerError(message: "cannot listen on \(host):\(port) (is the port in use?)")
        }
        daemon.withLock { $0 = DaemonHandle(pointer: started) }
    }

    /// The port actually bound.
    public var boundPort: UInt16 {
        daemon.withLock { d in d.map { plumb_mhd_port($0.pointer) } ?? 0 }
    }

    /// Stops listening and ends every connection.
    public func stop() {
        let handle = daemon.withLock { d -> DaemonHandle? in
            let h = d
            d = nil
            return h
        }
        if let handle { MHD_stop_daemon(handle.pointer) }
    }

    deinit { stop() }
}

/// Why the server could not start.
public struct ServerError: Error, Sendable {
    public let message: String
}

/// libmicrohttpd's daemon pointer; its functions may be called from any thread.
private struct DaemonHandle: @unchecked Sendable {  // a C handle libmicrohttpd makes thread-safe
    let pointer: OpaquePointer
}

/// One request's state across libmicrohttpd's calls: the body read so far, and what the log line
/// needs.
private final class RequestContext {
    let method: String
    let path: String
    let started = DispatchTime.now().uptimeNanoseconds
    var body: [UInt8] = []
    var status = 0
    var tooLarge = false

    init(method: String, path: String) {
        self.method = method
        self.path = path
    }
}

private func value(_ connection: OpaquePointer?, _ kind: MHD_ValueKind, _ name: String) -> String? {
    guard let pointer = MHD_lookup_connection_value(connection, kind, name) else { return nil }
    return String(cString: pointer)
}

private func send(_ response: HTTPResponse, on connection: OpaquePointer?) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        made = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        let context = Unmanaged.passRetained(stream).toOpaque()
        made = MHD_create_response_from_callback(UInt64.max, 16 * 1024, streamReader, context, streamFreed)
    }
    guard let made else { return MHD_Result.NO }
    for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
    for (name, value) in securityHeaders { MHD_add_response_header(made, name, value) }
    let result = MHD_queue_response(connection, UInt32(response.status), made)
    MHD_destroy_response(made)
    return result
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
    let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeUnretainedValue()
    guard let chunk = stream.next(max: max) else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
    chunk.withUnsafeBytes { raw in
        if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count) }
    }
    return chunk.count
}

private let streamFreed: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeRetainedValue()
    stream.abandon()
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, requestContext in
    guard let context, let requestContext, let uploadSize else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    guard let state = requestContext.pointee else {
        let request = RequestContext(method: method.map { String(cString: $0) } ?? "?", path: url.map { String(cString: $0) } ?? "/")
        requestContext.pointee = Unmanaged.passRetained(request).toOpaque()
        // A body announced larger than allowed is refused before it is read.
        if let length = value(connection, .HEADER_KIND, "content-length").flatMap(Int.init), length > server.limits.maxBody {
            request.status = 413
            return send(.error(413, "the request body is larger than \(server.limits.maxBody / 1024) KiB"), on: connection)
        }
        return .YES
    }
    let request = Unmanaged<RequestContext>.fromOpaque(state).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if request.body.count + uploadSize.pointee > server.limits.maxBody || request.tooLarge {
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
    return send(response, on: connection)
}

private let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, _ in
    guard let context, let requestContext, let state = requestContext.pointee else { return }
    requestContext.pointee = nil
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let request = Unmanaged<RequestContext>.fromOpaque(state).takeRetainedValue()
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - request.started) / 1e6
    let status = request.status == 0 ? "-" : String(request.status)
    server.log("\(request.method) \(logSafe(request.path)) \(status) \(String(format: "%.1f", milliseconds)) ms")
}

/// A path as the log shows it: at most 200 characters, control characters as `?`.
func logSafe(_ path: String) -> String {
    String(String.UnicodeScalarView(path.unicodeScalars.prefix(200).map { $0.value < 0x20 || $0.value == 0x7f ? "?" : $0 }))
}
