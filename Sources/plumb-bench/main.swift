import Foundation

// plumb-bench: run with `swift run -c release plumb-bench [--json] [--filter NAME] [--rounds N]`.
let allCases: [BenchCase] =
    coreBenchmarks + bridgeBenchmarks + languageBenchmarks + shellBenchmarks + diagramBenchmarks
    + stepBenchmarks + flatMapBenchmarks + schedulingBenchmarks + subjectScaleBenchmarks + sequenceBenchmarks + cancelOrderBenchmarks + serveBenchmarks

if CommandLine.arguments.dropFirst().first == subjectScaleRSSChildFlag { runSubjectScaleRSSChild() }

var json = false
var filters: [String] = []
var exactNames: [String] = []
var rounds = 1
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json": json = true
    case "--filter":
        guard let name = arguments.popFirst() else {
            FileHandle.standardError.write(Data("plumb-bench: --filter needs a case name\n".utf8))
            exit(2)
        }
        filters.append(name)
    case "--case":
        guard let name = arguments.popFirst() else {
            FileHandle.standardError.write(Data("plumb-bench: --case needs a case name\n".utf8))
            exit(2)
        }
        exactNames.append(name)
    case "--rounds":
        guard let text = arguments.popFirst(), let n = Int(text), n >= 1 else {
            FileHandle.standardError.write(Data("plumb-bench: --rounds needs a count of at least 1\n".utf8))
            exit(2)
        }
        rounds = n
    case "--list":
        for c in allCases { print("\(c.name)\t\(c.summary)") }
        exit(0)
    case "-h", "--help":
        print(
            """
            usage: plumb-bench [--json] [--filter NAME]... [--case NAME]... [--rounds N] [--list]
              --json         one JSON object per case: {"case", "ns_per_op", "baseline_ns_per_op", "ratio"}
              --filter NAME  run only the named case (repeatable; a prefix matches)
              --case NAME    run only the case of exactly this name (repeatable), e.g. `subject`
                             without `subject-scale`: for `valgrind --tool=callgrind` on one case
              --rounds N     run the selected cases N times over and report each case's fastest
                             round, with the baseline measured in that same round (on a shared
                             machine a whole process can run at a slower speed for a while), and
                             the median and slowest round (rounds_median_ns_per_op,
                             rounds_max_ns_per_op in JSON)
              --list         list the cases
            Build with -c release: debug numbers mean nothing.
            """)
        exit(0)
    default:
        FileHandle.standardError.write(Data("plumb-bench: unknown argument '\(argument)' (try --help)\n".utf8))
        exit(2)
    }
}

let selected =
    filters.isEmpty && exactNames.isEmpty
    ? allCases : allCases.filter { c in filters.contains { c.name.hasPrefix($0) } || exactNames.contains(c.name) }
if selected.isEmpty {
    FileHandle.standardError.write(Data("plumb-bench: no case matches \(filters + exactNames); try --list\n".utf8))
    exit(2)
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

/// Prints one case's result.
@MainActor
func report(_ c: BenchCase, _ result: BenchResult) {
    if json {
        // A case that could not run has NaN figures: JSON has no NaN, so they become null, with
        // the case's notes saying why.
        func number(_ value: Double?, scale: Double) -> Any {
            guard let value, value.isFinite else { return NSNull() }
            return (value * scale).rounded() / scale
        }
        var object: [String: Any] = [
            "case": c.name,
            "ns_per_op": number(result.nsPerOp, scale: 100),
            "baseline_ns_per_op": number(result.baselineNsPerOp, scale: 100),
            "ratio": number(result.ratio, scale: 1000),
        ]
        for (key, value) in result.extra { object[key] = number(value, scale: 100) }
        if !result.nsPerOp.isFinite || !result.notes.isEmpty { object["notes"] = result.notes }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            FileHandle.standardError.write(Data("plumb-bench: \(c.name): result cannot be written as JSON\n".utf8))
            print("{\"case\":\"\(c.name)\",\"ns_per_op\":null}")
            return
        }
        print(String(decoding: data, as: UTF8.self))
    } else {
        var line = "\(c.name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(format(result.nsPerOp)) ns/op"
        if let base = result.baselineNsPerOp, let ratio = result.ratio {
            line += "   baseline \(format(base)) ns/op   ratio \(format(ratio))x"
        }
        print(line)
        print("    \(c.summary)")
        for note in result.notes { print("    \(note)") }
    }
    fflush(nil)
}

if rounds == 1 {
    for c in selected { report(c, c.run()) }
} else {
    var best: [BenchResult?] = Array(repeating: nil, count: selected.count)
    var costs: [[Double]] = Array(repeating: [], count: selected.count)
    for _ in 0..<rounds {
        for (index, c) in selected.enumerated() {
            let result = c.run()
            costs[index].append(result.nsPerOp)
            if let current = best[index], current.nsPerOp <= result.nsPerOp { continue }
            best[index] = result
        }
    }
    for (index, c) in selected.enumerated() {
        // The spread across rounds, so a case that runs at two speeds shows it.
        var result = best[index]!
        let sorted = costs[index].sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        result.extra["rounds_median_ns_per_op"] = (median * 100).rounded() / 100
        result.extra["rounds_max_ns_per_op"] = (sorted.last! * 100).rounded() / 100
        result.notes.append(
            String(
                format: "rounds: fastest %.2f, median %.2f, slowest %.2f ns/op (slowest / fastest %.2fx)", sorted[0], median, sorted.last!,
                sorted.last! / sorted[0]))
        report(c, result)
    }
}
