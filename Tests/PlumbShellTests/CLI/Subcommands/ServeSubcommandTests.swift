import Testing

@testable import PlumbShell

@Suite struct ServeSubcommandTests {
    static func serve(_ directory: String? = nil, host: String = "127.0.0.1", port: Int = 8080, state: String? = nil, qr: Bool? = nil)
        -> ServeSubcommand
    {
        var serve = ServeSubcommand()
        serve.directory = directory
        serve.host = host
        serve.port = port
        serve.state = state
        serve.qr = qr
        return serve
    }

    @Test("plumb serve takes a folder, --host, --port, --state and --qr/--no-qr, with loopback and 8080 by default")
    func parses() throws {
        #expect(try parsed(["serve"]) == Self.serve())
        #expect(
            try parsed(["serve", "W", "--host", "0.0.0.0", "--port=9000", "--state", "/tmp/s"]) == Self.serve("W", host: "0.0.0.0", port: 9000, state: "/tmp/s")
        )
        #expect(try parsed(["serve", "--host", "::1", "--qr"]) == Self.serve(host: "::1", qr: true))
        #expect(try parsed(["serve", "--no-qr"]) == Self.serve(qr: false))
        #expect(try parsed(["serve", "--no-qr", "--qr"]) == Self.serve(qr: true))
        #expect(try parsed(["help", "serve"]) == HelpSubcommand(topic: "serve"))
    }

    @Test(
        "serve's options elsewhere, a bad port or two folders are usage errors",
        arguments: [
            (["run", "x.pipe", "--port", "1"], "--host, --port, --state, --qr and --no-qr are options of serve"),
            (["learn", "--state", "s"], "--host, --port, --state, --qr and --no-qr are options of serve"),
            (["run", "x.pipe", "--qr"], "--host, --port, --state, --qr and --no-qr are options of serve"),
            (["serve", "--port", "70000"], "--port needs a number from 0 to 65535, not '70000'"),
            (["serve", "--port", "x"], "--port needs a number from 0 to 65535, not 'x'"),
            (["serve", "a", "b"], "serve takes at most one folder"),
            (["serve", "--hots", "x"], "unknown option '--hots'; did you mean '--host'?"),
        ])
    func refuses(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
    }

    @Test("plumb help serve lists its options from the table, then its exit codes")
    func help() {
        let help = HelpText.command("serve")
        #expect(help.contains("\n\nOPTIONS\n  --host H       the IPv4 or IPv6 address to listen on (default 127.0.0.1; 0.0.0.0 or :: for\n"))
        #expect(help.contains("\n  --no-qr        no QR code, even on a terminal\n\nEXIT CODES\n"))
    }

    @Test("plumb serve on a folder without exercises says so and exits 2")
    func noExercises() throws {
        let result = try PlumbBinary.run(["serve", "/proc/self", "--port", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no exercises"))
    }
}
