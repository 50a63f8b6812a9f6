import Foundation
import PipeLanguage
import PlumbJSON

/// A workshop room: one value per feature, each owning its state behind its own lock (who may
/// come in, the learners, the runs, what the teacher presents, the live streams), and the routes
/// (`Room.routes`) that answer requests with them. `handle` is called on libmicrohttpd's polling
/// threads, or directly by a test: a request value in, a response value out.
public final class Room: Sendable {
    let configuration: RoomConfiguration
    /// The room's token, the teacher's key, and the rate limits before them.
    let access: RoomAccess
    /// The learners and their progress, kept in the state folder.
    let roster: Roster
    /// Runs and checks in children, in the room's line.
    let runs: RoomRuns
    /// The teacher's presented pipeline.
    let presenter: Presenter
    /// The live streams (server-sent events) to the pages.
    let live: LiveStreams
    /// The learners' URL and QR code for the teacher's page.
    let join = RoomJoin()
    /// The teacher's table's time (a test may move it in a room started for tests).
    let clock = RoomClock()

    /// Lets a browser test move the table's clock (`POST /api/teacher/test/clock`): for a room
    /// started with `PLUMB_SERVE_TEST_CLOCK=1` on loopback only.
    public func allowTestClock() {
        clock.allowMoving()
    }

    public init(_ configuration: RoomConfiguration) throws {
        self.configuration = configuration
        let store = RoomStore(directory: configuration.stateDirectory, report: configuration.report)
        try store.prepare()
        let secrets = try store.secrets()
        access = RoomAccess(roomToken: secrets.room, teacherKey: secrets.teacher, configuration: configuration)
        let live = LiveStreams(configuration: configuration)
        self.live = live
        roster = Roster(store: store, configuration: configuration, changed: { live.tableChanged() })
        runs = RoomRuns(configuration: configuration, events: live.events, changed: { live.tableChanged() })
        presenter = Presenter()
        Self.startTicker(self)
    }

    /// The learners' URL carries it (`/?room=TOKEN`), and every learner request its header.
    public var roomToken: String { access.roomToken }
    /// The teacher's URL carries it (`/teacher?key=KEY`), and every teacher request its header.
    public var teacherKey: String { access.teacherKey }

    var exercises: [RoomExercise] { configuration.exercises }

    /// Tells the room the learners' URL once the server listens, for the teacher's page (with its
    /// QR code).
    /// - Parameters:
    ///   - loopback: the server listens on this machine's loopback only (phones cannot reach it).
    ///   - openCommand: the `plumb serve … --host` command that serves the room to the network.
    public func announce(url: String, loopback: Bool, openCommand: String) {
        join.announce(RoomJoin.Address(url: url, loopback: loopback, openCommand: openCommand))
    }

    /// The terminal's note for a room on loopback: phones and other machines cannot reach it, and
    /// the command that lets them.
    public static func loopbackNote(openCommand: String) -> String { RoomJoin.loopbackNote(openCommand: openCommand) }

    static var now: Double { Date().timeIntervalSince1970 }

    /// Starts the room's ticker: a thread that holds the room weakly and ends with it, and sends
    /// the teacher's table and keep-alive comments when due (`LiveStreams.tick`).
    static func startTicker(_ room: Room) {
        let thread = Thread { [weak room] in
            while true {
                guard let current = room else { return }
                current.live.tick(now: Self.now) { current.roomTable() }
                usleep(250_000)
            }
        }
        thread.name = "plumb-serve-ticker"
        thread.start()
    }
}

/// A response that ends a request early.
struct HTTPResponseError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
