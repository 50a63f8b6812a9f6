import Foundation

// plumb-bench: run with `swift run -c release plumb-bench [--json] [--filter NAME]`.
let allCases: [BenchCase] = coreBenchmarks + bridgeBenchmarks + languageBenchmarks + shellBenchmarks

var json = false
var filters: [String] = []
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
    case "--list":
        for c in allCases { print("\(c.name)\t\(c.summary)") }
        exit(0)
    case "-h", "--help":
        print("""
            usage: plumb-bench [--json] [--filter NAME]... [--list]
              --json         one JSON object per case: {"case", "ns_per_op", "baseline_ns_per_op", "ratio"}
              --filter NAME  run only the named case (repeatable; a prefix matches)
              --list         list the cases
            Build with -c release: debug numbers mean nothing.
            """)
        exit(0)
    default:
        FileHandle.standardError.write(Data("plumb-bench: unknown argument '\(argument)' (try --help)\n".utf8))
        exit(2)
    }
}

let selected = filters.isEmpty ? allCases : allCases.filter { c in filters.contains { c.name.hasPrefix($0) } }
if selected.isEmpty {
    FileHandle.standardError.write(Data("plumb-bench: no case matches \(filters); try --list\n".utf8))
    exit(2)
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

for c in selected {
    let result = c.run()
    if json {
        var object: [String: Any] = [
            "case": c.name,
            "ns_per_op": (result.nsPerOp * 100).rounded() / 100,
            "baseline_ns_per_op": result.baselineNsPerOp.map { ($0 * 100).rounded() / 100 } ?? NSNull(),
            "ratio": result.ratio.map { ($0 * 1000).rounded() / 1000 } ?? NSNull(),
        ]
        for (key, value) in result.extra { object[key] = value }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
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
