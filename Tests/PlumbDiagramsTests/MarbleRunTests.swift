import Testing
import PlumbDiagrams

@Suite struct MarbleRunTests {
    @Test("a run records lanes and their events; the end is the latest event")
    func records() {
        var run = MarbleRun()
        let a = run.addLane(label: "just 1")
        let b = run.addLane(label: "inner 1", parent: a, kind: .inner)
        run.record(.subscribed, lane: a, at: 0)
        run.record(.value(MarbleValue(text: "1")), lane: b, at: 5)
        run.record(.finished, lane: 9, at: 100)
        #expect(run.lanes.count == 2)
        #expect(run.lanes[1].parent == 0)
        #expect(run.end == 5)
    }
}
