import Reactive
import Testing
@testable import PipeLanguage

// Issue #20: the language shows Combine's observed semantics for the operators whose behaviour
// was corrected in `Reactive` (each fact and its source are in Tests/ReactiveTests/
// CombineBehaviour). One `.pipe` case per operator the language exposes.
@Suite("Combine semantics, as the language shows them")
struct CombineSemanticsTests {
    // Combine's buffer(prefetch: .byRequest) asks upstream for everything at once; a consumer
    // that asks for one value at a time (values) loses what does not fit in the buffer.
    @Test("buffer: upstream is asked for everything at once; what does not fit is dropped")
    func buffer() {
        // A synchronous source sends everything while the buffer asks, before any demand.
        #expect(run("from 1...5 | buffer 2 | values") == ["0 subscribed", "0 next 1", "0 next 2", "0 finished"])
        #expect(run("from 1...5 | buffer 2") == ["0 subscribed", "0 value 1", "0 value 2", "0 finished"])
        // Values over time fit: each is taken before the next arrives.
        #expect(
            run("interval 100ms | take 3 | buffer 1 | values") == [
                "0 subscribed", "100 next 0", "200 next 1", "300 next 2", "300 finished",
            ])
    }

    // Combine's drop(untilOutputFrom:) ends the output when the trigger finishes without a value.
    // It still subscribes upstream and cancels it (its side effects run), but after the output
    // finished: the shell shows nothing of that (ReactiveTests' UntilOutputSubscribeOrderTests
    // checks it).
    @Test("drop untilOutputFrom: a trigger that finishes without a value finishes the output")
    func dropUntilOutput() {
        #expect(run("from 1...3 | drop untilOutputFrom: (empty)") == ["0 subscribed", "0 finished"])
    }

    // Combine's prefix(untilOutputFrom:) hands the subscription down when upstream's arrives; a
    // trigger that fires first (just does, at once) finishes the output without a subscription.
    @Test("prefix untilOutputFrom: a trigger that fires at once finishes the output, with no subscription")
    func prefixUntilOutput() {
        #expect(run("from 1...3 | prefix untilOutputFrom: (just 0)") == ["0 finished"])
        #expect(
            run("interval 100ms | prefix untilOutputFrom: (timer 250ms)") == [
                "0 subscribed", "100 value 0", "200 value 1", "250 finished",
            ])
    }

    // Combine's CurrentValueSubject keeps a value sent while its subscriber has no demand and
    // delivers it at the next request: asyncMap asks for one value at a time, so while it works
    // on 0, the 1 and 2 sent meanwhile are kept as the latest (2), delivered when it asks again.
    @Test("currentValue: a value sent while the subscriber has no demand is delivered at its next request")
    func currentValue() {
        let events = runWithJobs(
            """
            let c = currentValue 0
            c | asyncMap delay 100 | take 2 &
            c.send 1
            c.send 2
            timer 500ms
            """)
        #expect(
            events.filter { $0.hasPrefix("job ") } == [
                "job 0 subscribed", "job 100 value 0", "job 200 value 2", "job 200 finished",
            ])
    }

    /// Runs `text` on a virtual session like `run`, recording the background jobs' events too
    /// (as `"job <ms> <event>"`); the last, foreground pipeline drives the virtual time.
    private func runWithJobs(_ text: String) -> [String] {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile(text, file: "test")
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let recorder = Recorder()
        var jobs: [AnyCancellable] = []
        let runtime = session.runtime
        let start = runtime.now()
        for statement in statements {
            guard case .success(.run(let pipeline)) = session.execute(statement) else { continue }
            let background = pipeline.isBackground
            let job = pipeline.start(trace: false) { event in
                let ms = (runtime.now() - start).milliseconds
                recorder.events.withLock { $0.append((background ? "job " : "") + "\(ms) \(describe(event))") }
                if !background, case .finished = event { recorder.done.store(true, ordering: .sequentiallyConsistent) }
            }
            jobs.append(job)
            if !background { runtime.driveVirtualTime { recorder.done.load(ordering: .sequentiallyConsistent) } }
        }
        withExtendedLifetime(jobs) {}
        return recorder.events.withLock { $0 }
    }
}
