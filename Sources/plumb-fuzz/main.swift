// plumb-fuzz: the `.pipe` language under libFuzzer (build and run with Scripts/fuzz): the front
// end and `Session.execute`, whose pipelines are run on the virtual clock within a budget.
//
// Every input must keep the invariants of the language issue: no crash; the result is statements
// or diagnostics whose positions lie inside the input; a failed statement leaves the session's
// bindings exactly as before; a pipeline ends, or is cancelled at the budget, and reports exactly
// one terminal event. A broken invariant traps, so libFuzzer saves the input; a run that never
// returns is a hang libFuzzer reports with `-timeout`.
//
// Built without `-DPLUMB_FUZZ` (the normal `swift build`), it replays files given as arguments
// (or stdin) through the same check, so a crash file can be debugged without libFuzzer.
import Foundation
import PipeLanguage
import Synchronization

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
    var jobs: [FuzzRun] = []
    for statement in statements {
        require(inside(statement.location, length: 0), "statement outside the input: \(statement.location)")
        let before = session.bindingSummaries()
        switch session.execute(statement) {
        case .failure(let d):
            require(session.bindingSummaries() == before, "a failed statement changed the bindings")
            require(inside(d.location, length: d.length), "execute diagnostic outside the input: \(d)")
        case .success(.run(let pipeline)):
            let run = FuzzRun(pipeline)
            if pipeline.isBackground {
                jobs.append(run)
            } else {
                run.drive(session.runtime)
                require(run.terminalEvents == 1, "a foreground run reported \(run.terminalEvents) terminal events: \(pipeline.text.debugDescription)")
            }
        case .success:
            break
        }
    }
    for job in jobs {
        job.drive(session.runtime)
        require(job.terminalEvents == 1, "a background run reported \(job.terminalEvents) terminal events: \(job.text.debugDescription)")
    }
    _ = session.types(of: text)
    _ = Session.needsContinuation(text)
}

/// One pipeline run under the fuzzer's budget: at most `FuzzBudget.events` events, values of at
/// most `FuzzBudget.valueSize` (string bytes or array elements, nested ones counted) and
/// `FuzzBudget.virtualTime` of simulated time and `FuzzBudget.wallTime` of real time; past any of
/// them the run is cancelled.
final class FuzzRun: Sendable {
    private struct Counts {
        var events = 0
        var terminal = 0
        var overBudget = false
    }

    let text: String
    private let counts = Mutex(Counts())
    private let handle = Mutex<PipelineRun?>(nil)

    init(_ pipeline: Pipeline) {
        text = pipeline.text
        let run = pipeline.makeRun(trace: false) { [weak self] event in self?.handle(event) }
        handle.withLock { $0 = run }
        // Work that reports no event (`fail "x" | retry 9000000` resubscribes inside `start()`)
        // is stopped by the clock: a cancel from another thread must end it, as Ctrl-C does. One
        // that does not is a hang libFuzzer reports with -timeout.
        let watchdog = DispatchWorkItem { run.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + FuzzBudget.wallTime, execute: watchdog)
        run.start()
        watchdog.cancel()
    }

    var terminalEvents: Int { counts.withLock { $0.terminal } }
    private var isDone: Bool { counts.withLock { $0.terminal > 0 } }

    /// Drives the virtual clock until the run ends or spends its budget, then cancels it.
    func drive(_ runtime: Runtime) {
        let watchdog = DispatchWorkItem { [weak self] in self?.handle.withLock { $0 }?.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + FuzzBudget.wallTime, execute: watchdog)
        defer { watchdog.cancel() }
        let start = runtime.now()
        runtime.driveVirtualTime {
            isDone || counts.withLock { $0.overBudget } || runtime.now() - start > FuzzBudget.virtualTime
        }
        if !isDone { handle.withLock { $0 }?.cancel() }
        runtime.driveVirtualTime { isDone }
    }

    private func handle(_ event: PipelineEvent) {
        let cancel = counts.withLock { counts -> Bool in
            counts.events += 1
            switch event {
            case .finished, .failed, .cancelled: counts.terminal += 1
            case .value(let value), .next(let value):
                if FuzzBudget.size(of: value) > FuzzBudget.valueSize { counts.overBudget = true }
            default: break
            }
            if counts.events > FuzzBudget.events { counts.overBudget = true }
            return counts.overBudget && counts.terminal == 0
        }
        // A synchronous source emits from inside `start()`: only a cancel here stops it.
        if cancel { handle.withLock { $0 }?.cancel() }
    }
}

/// How much one pipeline may do in the fuzzer before it is cancelled.
enum FuzzBudget {
    static let events = 2_000
    static let valueSize = 1 << 16
    static let virtualTime: Duration = .seconds(60)
    /// Wall-clock time one run may take (building, or a synchronous source) before it is cancelled.
    static let wallTime: DispatchTimeInterval = .seconds(2)

    /// String bytes, or array elements with nested ones.
    static func size(of value: Value) -> Int {
        switch value {
        case .string(let s): s.utf8.count
        case .array(let items): items.reduce(items.count) { $0 + size(of: $1) }
        default: 1
        }
    }
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
