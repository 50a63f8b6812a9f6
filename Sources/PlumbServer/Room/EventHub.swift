import Foundation
import PlumbJSON

/// The room's live streams: server-sent events (`text/event-stream`) to learners' pages (present
/// mode, their own runs' events) and to the teacher's (the room's table).
///
/// An `EventSource` cannot send headers, and a token in a URL ends up in histories and logs, so a
/// stream is opened with a ticket: a page asks for one with a POST that carries its header token
/// (the room's token and the learner's secret, or the teacher's key), then opens
/// `GET …/events?ticket=T`. A ticket is random, opens one stream once, within `ticketSeconds`,
/// for the audience it was issued to (a learner's never opens the teacher's stream); the request
/// log never shows a query.
///
/// A stream is a `ResponseStream`: no thread waits on it. Bounds: a learner has at most
/// `perLearner` streams and the teacher `teacher` (a new one ends the oldest: a reloaded page's
/// old stream is not seen to be gone until the next write), a client address at most `perClient`
/// and the room `total` (past those, 429 and 503). A stream whose client reads too slowly to take
/// `streamCapacity` bytes is ended; its page reconnects and starts again from the current state.
final class EventHub: Sendable {
    enum Audience: Hashable, Sendable {
        case learner(String)
        case teacher
    }

    struct Limits: Sendable {
        var perLearner = 3
        var teacher = 4
        var perClient = 128
        var total = 512
        var ticketSeconds: Double = 30
        var tickets = 2_000
        var streamCapacity = 1 << 20
    }

    private struct Subscriber {
        let audience: Audience
        let client: String
        let stream: ResponseStream
    }

    private struct Ticket {
        let secret: String
        let audience: Audience
        let expires: Double
    }

    private struct State {
        /// By the order they were opened (the oldest first).
        var subscribers: [(id: UInt64, subscriber: Subscriber)] = []
        var nextID: UInt64 = 0
        var tickets: [Ticket] = []
    }

    let limits: Limits
    private let state = LockedState(State())

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Why a stream was not opened: the status and the words.
    struct Refusal: Error {
        let status: Int
        let message: String
    }

    /// A new ticket for `audience`; nil when too many are outstanding.
    func ticket(for audience: Audience, now: Double) -> String? {
        let secret = Secret.make()
        return state.withLock { s -> String? in
            s.tickets.removeAll { $0.expires < now }
            guard s.tickets.count < limits.tickets else { return nil }
            s.tickets.append(Ticket(secret: secret, audience: audience, expires: now + limits.ticketSeconds))
            return secret
        }
    }

    /// Takes the ticket `given` (it opens nothing again): its audience when it is outstanding and
    /// `accepts` it. Every outstanding ticket is compared in constant time.
    func redeem(_ given: String?, now: Double, accepts: (Audience) -> Bool) -> Audience? {
        guard let given else { return nil }
        return state.withLock { s -> Audience? in
            s.tickets.removeAll { $0.expires < now }
            var found: Int?
            for (index, ticket) in s.tickets.enumerated() where Secret.matches(given, ticket.secret) { found = index }
            guard let found, accepts(s.tickets[found].audience) else { return nil }
            return s.tickets.remove(at: found).audience
        }
    }

    /// Opens a stream for `audience` whose first bytes are `greeting`.
    func open(_ audience: Audience, client: String, greeting: [UInt8]) -> Result<ResponseStream, Refusal> {
        let stream = ResponseStream(capacity: limits.streamCapacity)
        stream.append(greeting)
        let outcome = state.withLock { s -> (Result<ResponseStream, Refusal>, [ResponseStream]) in
            s.subscribers.removeAll { $0.subscriber.stream.isFinished }
            if s.subscribers.count(where: { $0.subscriber.client == client }) >= limits.perClient {
                return (.failure(Refusal(status: 429, message: "too many live streams from this address")), [])
            }
            var ended: [ResponseStream] = []
            let mine = s.subscribers.filter { $0.subscriber.audience == audience }
            let most = audience == .teacher ? limits.teacher : limits.perLearner
            if mine.count >= most {
                let oldest = mine.prefix(mine.count - most + 1).map(\.id)
                ended = s.subscribers.filter { oldest.contains($0.id) }.map(\.subscriber.stream)
                s.subscribers.removeAll { oldest.contains($0.id) }
            }
            if s.subscribers.count >= limits.total {
                return (.failure(Refusal(status: 503, message: "the room has as many live streams as it takes")), ended)
            }
            s.nextID += 1
            s.subscribers.append((s.nextID, Subscriber(audience: audience, client: client, stream: stream)))
            return (.success(stream), ended)
        }
        for old in outcome.1 { old.close() }
        return outcome.0
    }

    /// Whether anyone is listening to `audience` (the teacher: whether the table is worth making).
    func hasSubscribers(_ matches: (Audience) -> Bool) -> Bool {
        state.withLock { s in s.subscribers.contains { matches($0.subscriber.audience) && !$0.subscriber.stream.isFinished } }
    }

    /// Live streams, for the tests.
    var count: Int { state.withLock { s in s.subscribers.count { !$0.subscriber.stream.isFinished } } }

    /// Sends one event (`event: NAME`, `data: JSON`) to every stream whose audience `matches`;
    /// a stream that cannot take it (gone, or too slow) is ended and forgotten.
    func send(_ name: String, _ data: JSON, to matches: (Audience) -> Bool) {
        deliver(Self.event(name, data), to: matches)
    }

    /// A comment line every stream gets now and then: proxies and libmicrohttpd's idle timeout
    /// see traffic, and a client that went away is found at this write.
    func keepAlive() {
        deliver(Array(": keep-alive\n\n".utf8), to: { _ in true })
    }

    private func deliver(_ bytes: [UInt8], to matches: (Audience) -> Bool) {
        let targets = state.withLock { s in s.subscribers.filter { matches($0.subscriber.audience) } }
        var failed: [UInt64] = []
        for (id, subscriber) in targets where !subscriber.stream.append(bytes) {
            subscriber.stream.close()
            failed.append(id)
        }
        if !failed.isEmpty { state.withLock { s in s.subscribers.removeAll { failed.contains($0.id) } } }
    }

    /// Ends every stream (the server is stopping, or the tests).
    func closeAll() {
        let all = state.withLock { s -> [ResponseStream] in
            defer { s.subscribers.removeAll() }
            return s.subscribers.map(\.subscriber.stream)
        }
        for stream in all { stream.close() }
    }

    /// One event as `text/event-stream` writes it. The JSON is one line (it escapes newlines).
    static func event(_ name: String, _ data: JSON) -> [UInt8] {
        Array("event: \(name)\ndata: \(data.encoded)\n\n".utf8)
    }

    /// What a stream starts with: how long a browser waits before reconnecting by itself.
    static let retry = Array("retry: 3000\n\n".utf8)
}
