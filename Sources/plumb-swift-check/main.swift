// plumb-swift-check: the programs `Scripts/check-swift` compiles and runs.
//
//   plumb-swift-check FILE.pipe        prints the file's `--program` main.swift
//   plumb-swift-check --package DIR [FILE.pipe …]
//       writes DIR/cases/NAME.pipe (every catalog entry's example, then each FILE) and
//       DIR/Sources/Check/main.swift: every case's program as one function, `Check NAME` runs one;
//       prints each case's name and how many pipelines it runs.
import Foundation
import PipeLanguage

func program(_ text: String, file: String) -> Result<String, SwiftProgramErrors> {
    Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: text, file: file)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first else { fail("usage: plumb-swift-check FILE.pipe | --package DIR [FILE.pipe …]") }

if first != "--package" {
    guard let text = try? String(contentsOfFile: first, encoding: .utf8) else { fail("cannot read \(first)") }
    switch program(text, file: first) {
    case .success(let p): print(p)
    case .failure(let e): fail(e.diagnostics.map(\.message).joined(separator: "\n"))
    }
    exit(0)
}

guard arguments.count >= 2 else { fail("usage: plumb-swift-check --package DIR [FILE.pipe …]") }
let directory = URL(fileURLWithPath: arguments[1])
var cases: [(name: String, text: String)] = Catalog.entries.map { ("example-\($0.name)", $0.example + "\n") }
for path in arguments.dropFirst(2) {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    cases.append(("file-" + name, text))
}

let casesDirectory = directory.appendingPathComponent("cases")
let sources = directory.appendingPathComponent("Sources/Check")
try FileManager.default.createDirectory(at: casesDirectory, withIntermediateDirectories: true)
try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)

var helpers: [String: String] = [:]
var helperOrder: [String] = []
var functions: [String] = []
var dispatch: [String] = []
var listing: [String] = []
// Whether some program crosses to an async sequence: the file imports ReactiveAsync too.
var usesAsync = false
for (i, c) in cases.enumerated() {
    try c.text.write(to: casesDirectory.appendingPathComponent(c.name + ".pipe"), atomically: true, encoding: .utf8)
    guard case .success(let p) = program(c.text, file: c.name + ".pipe") else { fail("\(c.name): does not compile") }
    guard let marker = p.range(of: "// MARK: - Pipelines\n") else { fail("\(c.name): no pipelines marker") }
    if p.contains("\nimport ReactiveAsync\n") { usesAsync = true }
    // Helpers are blocks that each start with `// MARK: helper NAME`: merge them by name.
    for block in p[..<marker.lowerBound].components(separatedBy: "// MARK: helper ").dropFirst() {
        let name = String(block.prefix { $0 != "\n" })
        if helpers[name] == nil { helperOrder.append(name) }
        helpers[name] = "// MARK: helper " + block.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let lines = p[marker.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
    // How many pipelines the program runs (skipped ones are comments).
    let pipelines = lines.count { line in
        ["run(", "runValues(", "runAsync(", "runSequence"].contains { line.hasPrefix($0) } || line.hasPrefix("let job") && line.contains(" = start(")
    }
    listing.append("\(c.name) \(pipelines)")
    let body = lines.map { "    " + $0 }
    functions.append("func case\(i)() {\n" + body.joined(separator: "\n") + "\n}")
    dispatch.append("case \(Value.string(c.name).description): case\(i)()")
}
let main =
    ["import Foundation"] + (usesAsync ? ["@preconcurrency import Reactive", "import ReactiveAsync"] : ["import Reactive"]) + [""]
    + helperOrder.map { helpers[$0]! + "\n" } + functions
    + ["switch CommandLine.arguments.dropFirst().first ?? \"\" {"] + dispatch + ["default: print(\"no such case\")", "}", ""]
try main.joined(separator: "\n").write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
print(listing.joined(separator: "\n"))
