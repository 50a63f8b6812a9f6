import Foundation
import PlumbJSON

/// One HTTP request, read whole before the handler sees it (bodies are capped at
/// `HTTPServer.Limits.maxBody`).
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path as libmicrohttpd decoded it (`%2e` is `.`), without the query.
    public var path: String
    /// The query's arguments that the server reads (`room`, `key`); others are not kept.
    public var query: [String: String]
    /// The headers the server reads, by lower-case name.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The peer's address as text (`127.0.0.1`).
    public var client: String

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = [],
        client: String = "127.0.0.1"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.client = client
    }

    /// The headers and query arguments a request's handler may read; libmicrohttpd is asked for
    /// these names only.
    static let headerNames = ["x-plumb-room", "x-plumb-key", "x-plumb-learner", "content-type", "content-length"]
    static let queryNames = ["room", "key", "name", "since", "ticket"]
}

/// A response: a whole body, or a stream of chunks that a producer fills while it is sent.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        case stream(ResponseStream)
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body

    public init(status: Int, headers: [(String, String)] = [], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A text body with its content type.
    public static func text(_ status: Int, _ text: String, type: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", type)], body: .bytes(Array(text.utf8)))
    }

    /// A JSON body.
    public static func json(_ status: Int, _ value: JSON) -> HTTPResponse {
        text(status, value.encoded, type: "application/json; charset=utf-8")
    }

    /// An error as JSON: `{"error": message}`.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object(["error": .string(message)]))
    }
}
