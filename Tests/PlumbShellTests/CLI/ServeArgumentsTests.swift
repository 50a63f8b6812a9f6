import Testing

@testable import PlumbShell

@Suite struct ServeArgumentsTests {
    @Test("plumb serve takes a folder, --host, --port, --state and --qr/--no-qr, with loopback and 8080 by default")
    func parses() throws {
        #expect(
            try ArgumentParser.parse(["serve"]).command
                == .serve(directory: "Examples/workshop", host: "127.0.0.1", port: 8080, state: nil, qr: nil))
        #expect(
            try ArgumentParser.parse(["serve", "W", "--host", "0.0.0.0", "--port=9000", "--state", "/tmp/s"]).command
                == .serve(directory: "W", host: "0.0.0.0", port: 9000, state: "/tmp/s", qr: nil))
        #expect(
            try ArgumentParser.parse(["serve", "--host", "::1", "--qr"]).command
                == .serve(directory: "Examples/workshop", host: "::1", port: 8080, state: nil, qr: true))
        #expect(
            try ArgumentParser.parse(["serve", "--no-qr"]).command
                == .serve(directory: "Examples/workshop", host: "127.0.0.1", port: 8080, state: nil, qr: false))
        #expect(try ArgumentParser.parse(["help", "serve"]).command == .help("serve"))
    }

    @Test(
        "serve's options elsewhere, a bad port or two folders are usage errors",
        arguments: [
            ["run", "x.pipe", "--port", "1"], ["serve", "--port", "70000"], ["serve", "--port", "x"], ["serve", "a", "b"], ["learn", "--state", "s"],
            ["run", "x.pipe", "--qr"],
        ])
    func refuses(arguments: [String]) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments) }
    }

    @Test("plumb serve on a folder without exercises says so and exits 2")
    func noExercises() throws {
        let result = try PlumbBinary.run(["serve", "/proc/self", "--port", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no exercises"))
    }
}
