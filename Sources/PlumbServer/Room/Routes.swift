import Foundation
import PlumbJSON

/// One of the room's routes: a method and a path, who may call it, the largest body it reads, and
/// its handler. The table (`Room.routes`) is the one place that lists them: the server asks it
/// for a request's body limit as soon as the request's head is in (`Room.bodyLimit`), before
/// reading the body; `Room.handle` finds a request's row, checks its caller, and answers 405
/// (with `Allow`) for a known path with another method. A new route is one row and its handler.
struct Route: Sendable {
    /// Who may call a route, checked before its handler runs.
    enum Caller: Sendable, Equatable {
        /// Anyone (the static files).
        case anyone
        /// The learner's page: `?room=TOKEN`, refused with an HTML page.
        case roomPage
        /// The teacher's page: `?key=KEY`, refused with an HTML page.
        case teacherPage
        /// An event stream: a one-time ticket in `?ticket=`, redeemed by the handler.
        case ticket
        /// Anyone with the room's token in `X-Plumb-Room`.
        case room
        /// A learner: the room's token and `X-Plumb-Learner: ID:SECRET`.
        case learner
        /// The teacher: `X-Plumb-Key`.
        case teacher

        /// Whether the caller proves itself with a header: such a route checks it before telling
        /// a wrong method (405) from a right one.
        var usesHeaders: Bool { self == .room || self == .learner || self == .teacher }
    }

    /// What a handler gets: the request, and the learner when the caller is `.learner`.
    struct Call {
        let request: HTTPRequest
        let learner: LearnerRecord?
    }

    /// The largest request bodies, in bytes. A route that reads no body takes none (a page, an
    /// event stream); one that reads a name or an exercise's name takes a small object; one that
    /// reads a program's text takes 64 KiB (a workshop's longest answer is under 2 KiB).
    enum Body {
        /// A route that reads no body.
        static let none = 0
        /// A small JSON object: `{}`, a name (kept to 40 characters), an exercise's name, a
        /// run's id.
        static let small = 4 * 1024
        /// A JSON object with a program's text.
        static let text = 64 * 1024
        /// A request to no route: it is answered 404 (or 405) without reading its body.
        static let unknown = small
    }

    let method: String
    let path: String
    let caller: Caller
    /// The largest body the route reads, in bytes (`Body`); a larger one is refused with 413
    /// before it is read.
    let bodyLimit: Int
    let handler: @Sendable (Room, Call) -> HTTPResponse

    init(
        _ method: String, _ path: String, _ caller: Caller, body bodyLimit: Int = Body.none, _ handler: @escaping @Sendable (Room, Call) -> HTTPResponse
    ) {
        self.method = method
        self.path = path
        self.caller = caller
        self.bodyLimit = bodyLimit
        self.handler = handler
    }

    /// A learner's route: the handler gets the learner the request names.
    static func learner(
        _ method: String, _ path: String, body bodyLimit: Int = Body.none, _ handler: @escaping @Sendable (Room, HTTPRequest, LearnerRecord) -> HTTPResponse
    ) -> Route {
        Route(method, path, .learner, body: bodyLimit) { room, call in
            guard let learner = call.learner else { return .error(401, "join the room first") }
            return handler(room, call.request, learner)
        }
    }
}

extension Room {
    /// Every route the room answers. `GET /api/events` and `GET /api/teacher/events` take a
    /// ticket from `POST …/stream` (see `Room+Events.swift`).
    static let routes: [Route] =
        [
            Route("GET", "/", .roomPage) { _, _ in .text(200, Assets.learnerPage, type: "text/html; charset=utf-8") },
            Route("HEAD", "/", .roomPage) { _, _ in .text(200, Assets.learnerPage, type: "text/html; charset=utf-8") },
            Route("GET", "/teacher", .teacherPage) { _, _ in .text(200, Assets.teacherPage, type: "text/html; charset=utf-8") },
            Route("GET", "/present", .teacherPage) { _, _ in .text(200, Assets.presentPage, type: "text/html; charset=utf-8") },
            Route("GET", "/api/events", .ticket) { room, call in room.openEvents(call.request, forTeacher: false) },
            Route("GET", "/api/teacher/events", .ticket) { room, call in room.openEvents(call.request, forTeacher: true) },
            // The learner's API: the room's token in `X-Plumb-Room`, and but for `join` and
            // `present` the learner's `X-Plumb-Learner: ID:SECRET`; state changes are POSTs.
            Route("POST", "/api/join", .room, body: Route.Body.small) { room, call in room.join(call.request) },
            Route("GET", "/api/present", .room) { room, _ in .json(200, room.presenter.json) },
            .learner("POST", "/api/stream", body: Route.Body.small) { room, _, learner in room.live.ticket(for: .learner(learner.id)) },
            .learner("GET", "/api/exercises") { room, _, learner in .json(200, room.exerciseList(learner)) },
            .learner("GET", "/api/exercise") { room, request, learner in room.exercise(request, learner: learner) },
            .learner("POST", "/api/hint", body: Route.Body.small) { room, request, learner in room.hint(request, learner: learner) },
            .learner("POST", "/api/check", body: Route.Body.text) { room, request, learner in room.check(request, learner: learner) },
            .learner("POST", "/api/reset", body: Route.Body.small) { room, request, learner in room.reset(request, learner: learner) },
            .learner("POST", "/api/run", body: Route.Body.text) { room, request, learner in room.run(request, learner: learner) },
            .learner("POST", "/api/step", body: Route.Body.text) { room, request, learner in room.step(request, learner: learner) },
            .learner("POST", "/api/compare", body: Route.Body.text) { room, request, learner in room.compare(request, learner: learner) },
            // The teacher's API: the teacher's key in `X-Plumb-Key` (the room's token opens none).
            Route("GET", "/api/teacher/room", .teacher) { room, _ in .json(200, room.roomTable()) },
            Route("POST", "/api/teacher/stream", .teacher, body: Route.Body.small) { room, _ in room.live.ticket(for: .teacher) },
            Route("POST", "/api/teacher/present", .teacher, body: Route.Body.text) { room, call in room.present(call.request) },
            Route("POST", "/api/teacher/present/step", .teacher, body: Route.Body.small) { room, call in room.presentStep(call.request) },
            Route("GET", "/api/teacher/join", .teacher) { room, _ in .json(200, room.join.json) },
            Route("POST", "/api/teacher/test/clock", .teacher, body: Route.Body.small) { room, call in room.moveTestClock(call.request) },
        ]
        + Assets.files.keys.sorted().map { path in
            Route("GET", path, .anyone) { _, _ in
                guard let (type, text) = Assets.files[path] else { return .error(404, "no such page") }
                return .text(200, text, type: type)
            }
        }

    /// The routes by path.
    static let routesByPath: [String: [Route]] = Dictionary(grouping: routes, by: \.path)

    /// The largest body a request to `method path` may send, and the route it is the limit of:
    /// the route's row, or a small default for a path or method no row has. The server asks
    /// this as soon as a request's head is in, before it reads the body.
    public static func bodyLimit(method: String, path: String) -> HTTPServer.BodyLimit {
        guard let route = routesByPath[path]?.first(where: { $0.method == method }) else {
            return HTTPServer.BodyLimit(bytes: Route.Body.unknown, route: "a request to no route")
        }
        return HTTPServer.BodyLimit(bytes: route.bodyLimit, route: "\(route.method) \(route.path)")
    }

    /// Answers one request: the client's rate, a safe path, the route's row and its caller, then
    /// its handler.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard access.clientLimit.allow(request.client) else { return .error(429, "too many requests: slow down") }
        guard RoomAccess.isSafe(request.path) else { return .error(400, "bad path") }
        guard let rows = Self.routesByPath[request.path] else {
            // An unknown path under the APIs still needs the API's token first: it tells nothing
            // to a caller without one.
            if request.path.hasPrefix("/api/teacher/") {
                return refusal(of: .teacher, request) ?? .error(404, "no such teacher endpoint")
            }
            if request.path.hasPrefix("/api/") { return refusal(of: .room, request) ?? .error(404, "no such endpoint") }
            return .error(404, "no such page")
        }
        guard let route = rows.first(where: { $0.method == request.method }) else {
            let caller = rows[0].caller
            if caller.usesHeaders, case .failure(let refusal) = admit(caller, request) { return refusal.response }
            var response = HTTPResponse.error(405, "wrong method for \(request.path)")
            response.headers.append(("Allow", rows.map(\.method).joined(separator: ", ")))
            return response
        }
        switch admit(route.caller, request) {
        case .success(let learner): return route.handler(self, Route.Call(request: request, learner: learner))
        case .failure(let refusal): return refusal.response
        }
    }

    /// Checks that `caller` describes the request: the learner it names for `.learner` (nil for
    /// the others), or the response refusing it.
    private func admit(_ caller: Route.Caller, _ request: HTTPRequest) -> Result<LearnerRecord?, HTTPResponseError> {
        if let refusal = refusal(of: caller, request) { return .failure(HTTPResponseError(refusal)) }
        guard caller == .learner else { return .success(nil) }
        return roster.learner(of: request, failed: { _ = access.failed($0) }).map { $0 }
    }

    /// The response refusing a request that `caller` does not describe, or nil. A learner's
    /// secret is checked apart (`Roster.learner(of:)`): here `.learner` checks the room's token.
    private func refusal(of caller: Route.Caller, _ request: HTTPRequest) -> HTTPResponse? {
        switch caller {
        case .anyone, .ticket: nil
        case .roomPage: access.refusal(request.query["room"], access.roomToken, client: request.client, page: true)
        case .teacherPage: access.refusal(request.query["key"], access.teacherKey, client: request.client, page: true)
        case .room, .learner: access.refusal(request.headers["x-plumb-room"], access.roomToken, client: request.client, page: false)
        case .teacher: access.refusal(request.headers["x-plumb-key"], access.teacherKey, client: request.client, page: false)
        }
    }
}
