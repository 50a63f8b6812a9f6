/// `plumb serve [DIR]`: a workshop room in the browser.
struct ServeSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "serve", summary: "a workshop room in the browser, for learners with nothing installed",
        usage: [
            Usage(
                synopsis: "plumb serve [DIR] [--host H] [--port N] [--state DIR] [--qr | --no-qr]",
                description: ["a workshop room in the browser (default: the exercises here, 127.0.0.1:8080)"])
        ],
        discussion: """
            Hosts a workshop room: learners need only a browser. Prints the learners' address (with
            the room's token; on a terminal also as a QR code) and the teacher's (with the teacher's
            key), then one line per request (method, path without the token, status, time), until
            Ctrl-C or SIGTERM, which end every live stream and stop the server. Learners give a name
            and get the exercises of DIR (default: as plumb learn finds them) with their lessons, Check (the
            checker of `plumb learn`), hints one at a time and a playground; the teacher sees every
            learner's progress live (server-sent events) and can present a pipeline on every
            learner's page. Each run is a child plumb on the virtual clock, limited to 5 s of real
            time, 2,000 events and 512 MiB of data memory; shell commands (:load, :export …) are
            refused.
            """,
        epilogue: """
            EXIT CODES
              2    the folder has no exercises, the address cannot be used, or the state cannot be kept
            """)

    /// The exercises' folder; nil: `WorkshopFolder`'s default.
    var directory: String?
    /// `--host`: the address to listen on.
    var host = "127.0.0.1"
    var port = 8080
    /// `--state DIR`: where progress and secrets are kept; nil: DIR/.plumb-room.
    var state: String?
    /// `--qr` (true) or `--no-qr` (false); nil: a QR code when standard output is a terminal.
    var qr: Bool?

    init() {}

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.operands.count <= 1 else { throw UsageError(message: "serve takes at most one folder") }
        directory = arguments.operands.first
        host = arguments.value("--host") ?? host
        port = arguments.value("--port").flatMap { Int($0) } ?? port
        state = arguments.value("--state")
        qr = arguments.last(of: ["--qr", "--no-qr"]).map { $0 == "--qr" }
    }

    /// `--host, --port, --state, --qr and --no-qr are options of serve`: they go together.
    static func misplaced(_ option: CommandLineOption) -> String {
        let names = ownOptions.map(\.name)
        return "\(names.dropLast().joined(separator: ", ")) and \(names.last ?? "") are options of serve"
    }

    func run() -> Int32 {
        ServeCommand.run(directory: directory, host: host, port: port, state: state, qr: qr)
    }
}
