import Foundation
import Testing

/// The virtual clock's horizon: a run that only an endless timer keeps going stops after 1 hour of
/// virtual time (or `--until D`) and says which source never ends; a long run that does end (a
/// lone `timer 27h`) is driven to its end.
@Suite struct VirtualHorizonTests {
    static let endless = "marble \"-a-b----|\" | combineLatest (interval 100ms)\nexpect count 3\n"

    @Test("plumb test: combineLatest with an interval stops at 1h and the FAIL says the interval never ends")
    func testStops() throws {
        let file = try PlumbBinary.script(Self.endless)
        let result = try PlumbBinary.run(["test", file])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains(":2: expected count 3, got count 36001\n"), "\(result)")
        #expect(result.stdout.contains("\n  note: stopped at 1h of virtual time: `interval 100ms` never ends (plumb --until D runs longer)\n"), "\(result)")
    }

    @Test("--until sets the horizon; a bad one is a usage error")
    func until() throws {
        let file = try PlumbBinary.script(Self.endless)
        let result = try PlumbBinary.run(["--until", "2s", "test", file])
        #expect(result.stdout.contains("got count 21\n") && result.stdout.contains("stopped at 2s of virtual time"), "\(result)")
        let bad = try PlumbBinary.run(["--until", "soon", "test", file])
        #expect(bad.status == 2 && bad.stderr.contains("--until needs a duration such as 2h or 90s, got 'soon'"), "\(bad)")
    }

    @Test("a lone far timer is not endless: timer 27h runs to its value")
    func farTimer() throws {
        let file = try PlumbBinary.script("timer 27h\nexpect values [0]\ninterval 1h | take 2\nexpect values [0, 1]\n")
        let result = try PlumbBinary.run(["--until", "2h", "test", file])
        #expect(result.status == 0, "\(result)")
    }

    @Test("learn --once with an endless exercise ends, and names why it fails")
    func learnEnds() throws {
        let folder = try PlumbBinary.folder(["01-endless.pipe": Self.endless])
        let result = try PlumbBinary.run(["learn", "--once", folder])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("`interval 100ms` never ends"), "\(result)")
    }

    @Test("the REPL on the virtual clock: an endless pipeline stops with a note, and the session goes on")
    func replStops() throws {
        let result = try PlumbBinary.run(["--clock", "virtual", "--until", "1s"], input: "interval 100ms | map { $0 * 2 }\njust 7\n")
        #expect(result.stdout.contains("value 18\n"), "\(result)")
        #expect(result.stderr.contains("note: stopped at 1s of virtual time: `interval 100ms` never ends"), "\(result)")
        #expect(result.stdout.contains("value 7\n"), "\(result)")
    }
}
