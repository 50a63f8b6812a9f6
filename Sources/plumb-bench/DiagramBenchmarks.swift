import Foundation
import PlumbDiagrams

/// A recorded run of `events` events on `lanes` stages: a 1 ms interval through stages that
/// each pass every value on a few µs later (a real clock's hop), then finish.
private func recordedRun(events: Int, lanes: Int) -> MarbleRun {
    var run = MarbleRun()
    let ids = (0..<lanes).map { run.addLane(label: $0 == 0 ? "interval 1ms" : "map { $0 * \($0 + 1) }") }
    for id in ids { run.record(.subscribed, lane: id, at: 0) }
    let perLane = events / lanes - 2
    for n in 0..<perLane {
        for (k, id) in ids.enumerated() {
            run.record(.value(MarbleValue(text: String(n * (k + 1)))), lane: id, at: Int64(n + 1) * 1_000_000 + Int64(k) * 3_000)
        }
    }
    let end = Int64(perLane + 1) * 1_000_000
    for id in ids { run.record(.finished, lane: id, at: end) }
    return run
}

/// Cases of the marble-diagram issue (`marbles-render`).
let diagramBenchmarks: [BenchCase] = [
    BenchCase(
        name: "marbles-render",
        summary: "render a recorded 10,000-event, 5-lane run to text at 80 columns and to SVG, per whole render"
    ) {
        let run = recordedRun(events: 10_000, lanes: 5)
        let nsPerRender = measure(operations: 1, repetitions: 10) {
            blackHole(MarbleText.render(run, width: 80, color: false))
        }
        let wide = measure(operations: 1, repetitions: 5) {
            blackHole(MarbleText.render(run, width: 200, color: true))
        }
        let svg = measure(operations: 1, repetitions: 5) {
            blackHole(MarbleSVG.render([run], titles: ["interval 1ms | map …"]))
        }
        // A render longer than a scheduler's time slice is preempted on a loaded machine: the
        // thread's CPU time says what it costs.
        var svgCPU = Double.infinity
        for _ in 0..<5 {
            let start = threadCPUNanoseconds()
            blackHole(MarbleSVG.render([run], titles: ["interval 1ms | map …"]))
            svgCPU = min(svgCPU, Double(threadCPUNanoseconds() - start))
        }
        return BenchResult(
            nsPerOp: nsPerRender, baselineNsPerOp: nil,
            notes: [
                String(
                    format: "one render: text %.2f ms at 80 columns, %.2f ms at 200 columns with colour; SVG %.2f ms (%.2f ms of CPU) (target < 20 ms each)",
                    nsPerRender / 1e6, wide / 1e6, svg / 1e6, svgCPU / 1e6)
            ],
            extra: ["ns_per_render_200": wide, "ns_per_svg": svg, "cpu_ns_per_svg": svgCPU])
    }
]
