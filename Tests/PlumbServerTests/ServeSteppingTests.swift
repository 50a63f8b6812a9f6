import Foundation
import PlumbJSON
import PlumbTestSupport
import Testing

@testable import PlumbServer

/// Stepping in the browser (issue 37): `POST /api/step` runs the text in a child that steps its
/// last pipeline as `:step` and `:next` do (`StepTimeline` over `SteppedRun`), and answers with
/// every pause; the teacher stands the presented pipeline at a pause
/// (`POST /api/teacher/present/step`) and every learner's `present` follows. The built `plumb`
/// is the child, as `plumb serve` starts it.
@Suite struct ServeSteppingTests {
    func room() throws -> TestRoom {
        let binary = try #require(BuiltPlumb.path, "\(BuiltPlumb.missing)")
        return try TestRoom(worker: WorkerCommand(executable: binary))
    }

    static let pipeline = "interval 100ms | take 3 | scan 0 { $0 + $1 }"

    @Test("Step answers with a pause per instant: its time, :step's lines there, the diagram so far")
    func pauses() throws {
        let room = try room()
        let learner = try room.join()
        let body = JSON.object(["text": .string(Self.pipeline)]).encoded
        let result = try #require(try room.send("POST", "/api/step", body: body, learner: learner).result)
        let steps = try #require(result["steps"]?.array, "\(result)")
        // interval ticks at 100, 200 and 300 ms; take ends the run at the third.
        #expect(steps.map { $0["ns"] } == [.int(0), .int(100_000_000), .int(200_000_000), .int(300_000_000)])
        #expect(steps.map { $0["time"]?.string ?? "" } == ["0 ms", "100 ms", "200 ms", "300 ms"])
        #expect(result["ending"]?.string == "ended")
        // What `:step` prints at 200 ms: each stage's value, then the pipeline's event.
        let lines = try #require(steps[2]["lines"]?.array).map { $0.string ?? "" }
        #expect(
            lines == [
                "  +0.200s  │ [0] interval value 1", "  +0.200s  │ [1] take value 1", "  +0.200s  │ [2] scan value 1", "  +0.200s  value 1",
            ], "\(lines)")
        // The diagram so far: at 100 ms one value per lane, at the end three and the finish.
        let first = try #require(steps[1]["svg"]?.string)
        let last = try #require(steps[3]["svg"]?.string)
        #expect(first.components(separatedBy: "class=\"mark value\"").count - 1 == 3)
        #expect(last.components(separatedBy: "class=\"mark value\"").count - 1 == 9)
        #expect(!first.contains("class=\"mark finished\"") && last.contains("class=\"mark finished\""))
    }

    @Test("Step runs the statements before the pipeline; a text that ends with no pipeline is told so")
    func bindingsAndNoPipeline() throws {
        let room = try room()
        let learner = try room.join()
        let bound = JSON.object(["text": .string("let s = marble \"-a-b|\"\ns | map { $0 + \"!\" }")]).encoded
        let steps = try #require(try room.send("POST", "/api/step", body: bound, learner: learner).result?["steps"]?.array)
        // The marble's a at 100 ms, b at 300 ms, its end at 400 ms.
        #expect(steps.map { $0["ns"] } == [.int(0), .int(100_000_000), .int(300_000_000), .int(400_000_000)])
        #expect(steps[1]["lines"]?.array?.contains(.string("  +0.100s  │ [1] map value \"a!\"")) == true, "\(steps[1])")
        let binding = JSON.object(["text": .string("let s = just 1")]).encoded
        let result = try #require(try room.send("POST", "/api/step", body: binding, learner: learner).result)
        #expect(result["error"]?["message"]?.string?.hasPrefix("Step needs a pipeline") == true, "\(result)")
        #expect(result["steps"] == nil)
    }

    @Test("the teacher steps the presented pipeline and every learner's present event follows")
    func presentStep() throws {
        let room = try room()
        let key = room.room.teacherKey
        let learner = try room.join()
        #expect(try room.send("POST", "/api/teacher/present/step", body: #"{"pause": 0}"#, room: .some(nil), key: key).status == 409)
        let text = JSON.object(["text": .string(Self.pipeline)]).encoded
        _ = try room.send("POST", "/api/teacher/present", body: text, room: .some(nil), key: key)
        let stream = try room.stream(learner: learner)
        // The first step runs the step-through and stands at pause 1 (100 ms).
        let first = try room.send("POST", "/api/teacher/present/step", body: #"{"pause": 1}"#, room: .some(nil), key: key)
        #expect(first.result?["steps"]?.array?.count == 4)
        let present = try #require(try room.send("GET", "/api/present").json)
        #expect(present["step"]?["index"] == .int(1))
        #expect(present["step"]?["count"] == .int(4))
        #expect(present["step"]?["pause"]?["ns"] == .int(100_000_000))
        #expect(present["step"]?["times"] == .array([.int(0), .int(100_000_000), .int(200_000_000), .int(300_000_000)]))
        // The learner's stream hears it: a present event standing at 100 ms.
        let heard = try #require(stream.next { $0.name == "present" && $0.data?["step"]?["index"] == .int(1) })
        #expect(heard.data?["step"]?["pause"]?["time"]?.string == "100 ms")
        // Later moves answer at once; past the last is the last; null shows the whole run again.
        let past = try room.send("POST", "/api/teacher/present/step", body: #"{"pause": 99}"#, room: .some(nil), key: key)
        #expect(past.json?["pause"] == .int(3))
        #expect(try room.send("GET", "/api/present").json?["step"]?["index"] == .int(3))
        _ = try room.send("POST", "/api/teacher/present/step", body: #"{"pause": null}"#, room: .some(nil), key: key)
        let whole = try #require(try room.send("GET", "/api/present").json)
        #expect(whole["step"] == nil && whole["active"] == .bool(true))
        // A new presentation starts unstepped.
        _ = try room.send("POST", "/api/teacher/present", body: text, room: .some(nil), key: key)
        #expect(try room.send("GET", "/api/present").json?["step"] == nil)
        #expect(try room.send("POST", "/api/teacher/present/step", body: #"{"pause": "x"}"#, room: .some(nil), key: key).status == 400)
    }
}

/// The playground's Compare (issues 37 and 39): `POST /api/compare` runs each pipeline pushed and
/// pulled as `:compare` does (`PipelineComparison` in the child).
@Suite struct ServeCompareTests {
    @Test("Compare answers with both runs' events side by side, one diagram, the verdict and why; E410 has its position")
    func compare() throws {
        let binary = try #require(BuiltPlumb.path, "\(BuiltPlumb.missing)")
        let room = try TestRoom(worker: WorkerCommand(executable: binary))
        let learner = try room.join()
        let body = JSON.object(["text": .string("interval 100ms | take 3 | debounce 150ms")]).encoded
        let result = try #require(try room.send("POST", "/api/compare", body: body, learner: learner).result)
        let comparison = try #require(result["comparisons"]?.array?.first, "\(result)")
        #expect(comparison["differs"] == .bool(true))
        #expect(comparison["pull"]?.string == "interval 100ms | values | take 3 | debounce 150ms")
        // The async debounce emits the pending 2 when its base finishes; Combine's drops it.
        let differing = try #require(comparison["rows"]?.array).filter { $0["differs"] == .bool(true) }
        #expect(differing.count == 1)
        #expect(differing.first?["push"] == .null && differing.first?["pull"]?.string?.hasSuffix("value 2") == true)
        let verdict = try #require(comparison["verdict"]?.array).map { $0.string ?? "" }
        #expect(verdict.first == "differs: 1 line (marked ≠)")
        #expect(verdict.dropFirst().first?.hasPrefix("why: debounce: when its base finishes") == true, "\(verdict)")
        let svg = try #require(comparison["svg"]?.string)
        #expect(svg.contains(">[0] push interval 100ms<") && svg.contains(">[3] pull interval 100ms<"))
        // E410: a stage with no async twin, at its position; nothing compared.
        let retry = JSON.object(["text": .string("just 1 | retry 2")]).encoded
        let refused = try #require(try room.send("POST", "/api/compare", body: retry, learner: learner).result)
        let diagnostic = try #require(refused["diagnostics"]?.array?.first)
        #expect(diagnostic["id"]?.string == "E410")
        #expect(diagnostic["line"] == .int(1) && diagnostic["column"] == .int(10))
        #expect(refused["comparisons"] == nil)
    }
}
