import Foundation
import PlumbJSON

/// Who may come in: the room's token and the teacher's key, the request rate per client address,
/// and the count of wrong tokens per client (past it, 429). Every token is compared in constant
/// time; a learner's room token is never the teacher's key (they are separate random values).
final class RoomAccess: Sendable {
    /// The learners' URL carries it (`/?room=TOKEN`), and every learner request its header.
    let roomToken: String
    /// The teacher's URL carries it (`/teacher?key=KEY`), and every teacher request its header.
    let teacherKey: String
    /// Requests per client address.
    let clientLimit: RateLimiter
    /// Wrong or missing tokens (and learner secrets, and stream tickets) per client address.
    let authFailures: RateLimiter

    init(roomToken: String, teacherKey: String, configuration: RoomConfiguration) {
        self.roomToken = roomToken
        self.teacherKey = teacherKey
        clientLimit = RateLimiter(configuration.rates.client)
        authFailures = RateLimiter(configuration.rates.authFailure)
    }

    /// Paths that could reach outside what the server serves are refused outright, though no
    /// route reads a file: `..` segments (also as `%2e%2e`, which libmicrohttpd has decoded),
    /// backslashes, NUL and other control characters.
    static func isSafe(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.utf8.count <= 1024 else { return false }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f || $0 == "\\" }) { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." }
    }

    /// Compares a token in constant time: nil when it matches; otherwise 403, or 429 once the
    /// client has given too many wrong or missing tokens.
    /// - Parameters:
    ///   - page: refused with the HTML page that asks for the link, not with JSON.
    func refusal(_ given: String?, _ expected: String, client: String, page: Bool) -> HTTPResponse? {
        if Secret.matches(given, expected) { return nil }
        guard authFailures.allow(client) else { return Self.tooManyWrongTokens }
        if page { return .text(403, Assets.forbiddenPage, type: "text/html; charset=utf-8") }
        return .error(403, expected == teacherKey ? "this needs the teacher's key" : "this needs the room's token (open the URL the teacher gave)")
    }

    /// Counts a wrong secret or ticket against `client`: nil while it may try again, else 429.
    func failed(_ client: String) -> HTTPResponse? {
        authFailures.allow(client) ? nil : Self.tooManyWrongTokens
    }

    static let tooManyWrongTokens = HTTPResponse.error(429, "too many wrong tokens: wait a minute")
}
