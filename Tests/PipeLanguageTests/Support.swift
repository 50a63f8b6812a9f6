import Foundation
import Synchronization
import Testing
@testable import PipeLanguage

/// Runs `.pipe` text on a virtual-clock session and records each event with its virtual time (ms).
final class Recorder: Sendable {
    let events = Mutex<[String]>([])
    let done = Atomic<Bool>(false)
}

/// Compiles and runs every statement of `text` on a fresh virtual session; returns the events of
/// the last pipeline as `"<ms> <event>"` lines. Diagnostics make the test fail.
func run(_ text: String, session: Session? = nil, trace: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String] {
    let session = session ?? Session(runtime: Runtime(clock: .virtual))
    let (statements, diagnostics) = session.compile(text, file: "test")
    let errors = diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(errors.map(\.description))", sourceLocation: sourceLocation)
    var last: [String] = []
    for statement in statements {
        switch session.execute(statement) {
        case .failure(let d): Issue.record("\(d)", sourceLocation: sourceLocation)
        case .success(.run(let pipeline)):
            let recorder = Recorder()
            let runtime = session.runtime
            let start = runtime.now()
            let c = pipeline.start(trace: trace) { event in
                let ms = (runtime.now() - start).milliseconds
                recorder.events.withLock { $0.append("\(ms) \(describe(event))") }
                switch event {
                case .finished, .failed, .cancelled: recorder.done.store(true, ordering: .sequentiallyConsistent)
                default: break
                }
            }
            if !pipeline.isBackground {
                runtime.driveVirtualTime { recorder.done.load(ordering: .sequentiallyConsistent) }
                last = recorder.events.withLock { $0 }
            } else {
                backgroundJobs.withLock { $0.append(c) }
            }
            withExtendedLifetime(c) {}
        case .success: break
        }
    }
    return last
}

let backgroundJobs = Mutex<[AnyCancellable]>([])

func describe(_ event: PipelineEvent) -> String {
    switch event {
    case .subscribed: "subscribed"
    case .value(let v): "value \(v)"
    case .next(let v): "next \(v)"
    case .finished: "finished"
    case .failed(let e): "failed: \(e.message)"
    case .cancelled: "cancelled"
    case .trace(let stage, let name, let depth, let event, _): "trace \(stage) \(name) \(depth) \(event)"
    case .output(let kind, let stage, let text): "\(kind.rawValue) \(stage) \(text)"
    case .lane(let lane, let signal): "lane \(lane) \(signal)"
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (s, a) = components
        return s * 1000 + a / 1_000_000_000_000_000
    }
}

/// Diagnostics (errors and warnings) for `text` on a fresh session.
func diagnose(_ text: String, session: Session = Session(runtime: Runtime(clock: .virtual))) -> [Diagnostic] {
    session.compile(text, file: "t").diagnostics
}

extension Result where Success == Action, Failure == Diagnostic {
    /// The pipeline a statement runs, `nil` for any other action or an error: for `#require`, so
    /// a text that stops being a pipeline fails the test instead of skipping its checks.
    var pipeline: Pipeline? {
        if case .success(.run(let pipeline)) = self { return pipeline }
        return nil
    }
}

/// A text with position markers (`1️⃣` … `9️⃣`) taken out, and where each stood, as swift-format's
/// `MarkedText` does: `MarkedText("just 1 | 1️⃣map { $0 }")` is `just 1 | map { $0 }` with
/// marker 1 at UTF-8 offset 9.
struct MarkedText {
    static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]
    /// The text without its markers.
    let text: String
    /// Each marker's UTF-8 offset in `text`, by its number.
    let offsets: [Int: Int]

    init(_ marked: String) {
        var text = ""
        var offsets: [Int: Int] = [:]
        var rest = Substring(marked)
        while let (number, range) = Self.markers.enumerated().compactMap({ i, m in rest.range(of: m).map { (i + 1, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound })
        {
            text += rest[..<range.lowerBound]
            offsets[number] = text.utf8.count
            rest = rest[range.upperBound...]
        }
        text += rest
        self.text = text
        self.offsets = offsets
    }

    /// Marker `number`'s UTF-8 offset (a test fails on a missing marker).
    subscript(_ number: Int) -> Int { offsets[number] ?? -1 }
}

/// Runs `body` on a new thread. Not `DispatchQueue.global()`: the tests running at the same time
/// can occupy every thread of its pool (two on a 2-core machine), and a test blocked inside
/// `start()` would then wait forever for the cancel it scheduled there.
func onThreadOfItsOwn(_ body: @escaping @Sendable () -> Void) {
    Thread { body() }.start()
}

/// Runs a blocking wait on a thread of its own and awaits its result, leaving Swift's
/// cooperative pool free for the tasks being waited for.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        onThreadOfItsOwn { continuation.resume(returning: body()) }
    }
}
