import Foundation
import PlumbDiagrams
import PlumbJSON

/// The diagram of a run the room stopped at a cap (its events, its time): the child was ended
/// before it could draw one, so the room draws what it recorded of the run's output, a lane per
/// pipeline, ending in a cancel mark where it was stopped, under a title that says so.
enum CappedRunDiagram {
    /// The SVG of `events` (the run's `{"event": …, "job": N, "t": SECONDS, …}` lines, as the
    /// room kept them), or nil when there is nothing to draw.
    /// - Parameters:
    ///   - why: what stopped it, for the title (`stopped here: …`).
    ///   - all: how many events the run sent (the room keeps only the first ones).
    static func svg(_ events: [JSON], why: String, all: Int) -> String? {
        var run = MarbleRun()
        var lanes: [Int: Int] = [:]
        var last: Int64 = 0
        for line in events {
            guard let kind = line["event"]?.string, let job = line["job"]?.number, let seconds = line["t"]?.number, seconds.isFinite, seconds >= 0 else {
                continue
            }
            let time = Int64(min(seconds, 1e9) * 1e9)
            let event: MarbleEvent
            switch kind {
            case "subscribed": event = .subscribed
            case "value": event = .value(MarbleValue(text: line["value"].map(text) ?? ""))
            case "finished": event = .finished
            case "failed": event = .failed(line["error"]?.string ?? "failed", id: line["id"]?.string)
            default: continue
            }
            let lane = lanes[Int(job)] ?? run.addLane(label: "pipeline \(Int(job) + 1)")
            lanes[Int(job)] = lane
            run.record(event, lane: lane, at: time)
            last = max(last, time)
        }
        guard !lanes.isEmpty else { return nil }
        // Where the room stopped it: a cancel mark on every lane still going.
        for lane in lanes.values where !run.lanes[lane].events.contains(where: { $0.event == .finished || $0.event.isFailure }) {
            run.record(.cancelled, lane: lane, at: last)
        }
        run.end = last
        let shown = events.count < all ? " (its first \(events.count) of \(all) events drawn)" : ""
        return MarbleSVG.render([run], titles: ["stopped here: \(why)\(shown)"])
    }

    /// A value as the diagram labels it: a string as it is, anything else as JSON.
    private static func text(_ value: JSON) -> String {
        value.string ?? value.encoded
    }
}

extension MarbleEvent {
    fileprivate var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}
