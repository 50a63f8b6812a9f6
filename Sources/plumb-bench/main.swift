import Foundation

// plumb-bench: run with `swift run -c release plumb-bench [--json] [--filter NAME] [--rounds N]`.
let allCases: [BenchCase] =
    coreBenchmarks + bridgeBenchmarks + languageBenchmarks + shellBenchmarks + diagramBenchmarks
    + stepBenchmarks + erasedBenchmarks + flatMapBenchmarks + schedulingBenchmarks + subjectScaleBenchmarks + sequenceBenchmarks
    + cancelOrderBenchmarks + serveBenchmarks
    + asyncAlgorithmsBenchmarks

if CommandLine.arguments.dropFirst().first == subjectScaleRSSChildFlag { runSubjectScaleRSSChild() }

var json = false
var filters: [String] = []
var exactNames: [String] = []
var rounds = 1
var processes = 1
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
    case "--processes":
        guard let text = arguments.popFirst(), let n = Int(text), n >= 1 else {
            FileHandle.standardError.write(Data("plumb-bench: --processes needs a count of at least 1\n".utf8))
            exit(2)
        }
        processes = n
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
              --processes N  run each selected case in N fresh processes of this binary, one
                             after another, and report the median process's figures with every
                             process's in the notes (processes_min_ns_per_op,
                             processes_max_ns_per_op in JSON): a case whose figure depends on the
                             process (its addresses, where the scheduler put it) shows two
                             clusters here and not in --rounds
              --list         list the cases
            Every case also reports the spread of its timed repetitions (reps_median_ns_per_op,
            reps_max_ns_per_op in JSON; baseline_reps_… for its baseline).
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

/// Runs one case and adds the spread of its repetitions (and its baseline's) to the result.
func run(_ c: BenchCase) -> BenchResult {
    RepetitionLog.reset()
    var result = c.run()
    for (label, key, figure) in [("repetitions", "reps", result.nsPerOp), ("baseline repetitions", "baseline_reps", result.baselineNsPerOp)] {
        guard let spread = RepetitionLog.spread(of: figure), spread.count > 1 else { continue }
        result.extra["\(key)_median_ns_per_op"] = (spread.median * 100).rounded() / 100
        result.extra["\(key)_max_ns_per_op"] = (spread.slowest * 100).rounded() / 100
        result.notes.append(
            String(
                format: "%@ (%d): fastest %.2f, median %.2f, slowest %.2f ns/op", label, spread.count, spread.fastest, spread.median,
                spread.slowest))
    }
    return result
}

/// Runs `c` in `processes` fresh processes of this binary and reports the median process, with
/// every process's figure beside it.
@MainActor
func runInProcesses(_ c: BenchCase) -> BenchResult {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var figures: [(cost: Double, baseline: Double?)] = []
    for _ in 0..<processes {
        let output = ShellBench.capture(executable, ["--json", "--case", c.name, "--rounds", String(rounds)])
        guard let line = output.split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let cost = object["ns_per_op"] as? Double
        else { continue }
        figures.append((cost, object["baseline_ns_per_op"] as? Double))
    }
    let costs = figures.map(\.cost).sorted()
    guard !costs.isEmpty else { return BenchResult(nsPerOp: .nan, baselineNsPerOp: nil, notes: ["no process reported a figure"]) }
    let middle = figures.sorted { $0.cost < $1.cost }[figures.count / 2]
    return BenchResult(
        nsPerOp: middle.cost, baselineNsPerOp: middle.baseline,
        notes: [
            "processes (\(costs.count)), ns/op: " + costs.map(format).joined(separator: " "),
            String(format: "slowest / fastest process: %.2fx", costs.last! / costs[0]),
        ],
        extra: ["processes_min_ns_per_op": costs[0], "processes_max_ns_per_op": costs.last!, "processes_median_ns_per_op": median(ofSorted: costs)])
}

if processes > 1 {
    for c in selected { report(c, runInProcesses(c)) }
} else if rounds == 1 {
    for c in selected { report(c, run(c)) }
} else {
    var best: [BenchResult?] = Array(repeating: nil, count: selected.count)
    var costs: [[Double]] = Array(repeating: [], count: selected.count)
    for _ in 0..<rounds {
        for (index, c) in selected.enumerated() {
            let result = run(c)
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
