// plumb-fuzz: the `.pipe` front end under libFuzzer (build and run with Scripts/fuzz).
//
// Every input must keep the invariants of the language issue: no crash; the result is statements
// or diagnostics whose positions lie inside the input; a failed statement leaves the session's
// bindings exactly as before. A broken invariant traps, so libFuzzer saves the input.
//
// Built without `-DPLUMB_FUZZ` (the normal `swift build`), it replays files given as arguments
// (or stdin) through the same check, so a crash file can be debugged without libFuzzer.
import Foundation
import PipeLanguage

#if PLUMB_FUZZ
import CFuzzDriver
#endif

/// Checks one input; traps with a message when an invariant does not hold.
func check(_ data: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: data, as: UTF8.self)
    let session = Session(runtime: Runtime(clock: .virtual))
    for setup in ["let a = just 1", "let s = subject"] {
        if let statement = session.compile(setup, file: "setup").statements.first { _ = session.execute(statement) }
    }
    let (statements, diagnostics) = session.compile(text, file: "in", firstLine: 1)
    // Lines end at each "\n" byte (a "\r\n" is one Character in Swift, so split the bytes).
    let lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self).unicodeScalars.count }
    func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("invariant broken: \(message()) for input \(text.debugDescription)") }
    }
    func inside(_ location: SourceLocation, length: Int) -> Bool {
        guard location.file == "in", location.line >= 1, location.line <= lines.count else { return false }
        let count = lines[location.line - 1]
        return location.column >= 1 && location.column <= count + 1 && length >= 0 && location.column - 1 + length <= count + 1
    }
    for d in diagnostics {
        require(inside(d.location, length: d.length) && d.offset >= 0 && d.offset <= text.utf8.count, "diagnostic outside the input: \(d)")
        _ = d.rendered(source: text, color: false)
    }
    for statement in statements {
        require(inside(statement.location, length: 0), "statement outside the input: \(statement.location)")
        let before = session.bindingSummaries().map { "\($0.name)=\($0.summary)" }
        if case .failure(let d) = session.execute(statement) {
            require(session.bindingSummaries().map { "\($0.name)=\($0.summary)" } == before, "a failed statement changed the bindings")
            require(inside(d.location, length: d.length), "execute diagnostic outside the input: \(d)")
        }
    }
    _ = session.typeDescription(of: text)
    _ = Session.needsContinuation(text)
}

#if PLUMB_FUZZ
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    check(UnsafeBufferPointer(start: data, count: size))
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) })
#else
let paths = CommandLine.arguments.dropFirst()
if paths.isEmpty {
    let input = FileHandle.standardInput.readDataToEndOfFile()
    input.withUnsafeBytes { check($0.bindMemory(to: UInt8.self)) }
    print("plumb-fuzz: stdin ok (build with Scripts/fuzz to fuzz)")
} else {
    for path in paths {
        guard let input = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("plumb-fuzz: cannot read \(path)\n".utf8))
            exit(2)
        }
        input.withUnsafeBytes { check($0.bindMemory(to: UInt8.self)) }
        print("plumb-fuzz: \(path) ok")
    }
}
#endif
