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
