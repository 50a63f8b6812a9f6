import Foundation
import Synchronization
import Testing
@testable import PipeLanguage

/// `Pipeline.makeRun`: a handle that exists before subscribing, so a run can be cancelled while its
/// synchronous source is still emitting from inside `start()`.
@Suite struct PipelineRunTests {
    /// Compiles one pipeline statement on a fresh session.
    func pipeline(_ text: String, clock: ClockMode = .real) throws -> Pipeline {
        let session = Session(runtime: Runtime(clock: clock))
        let (statements, diagnostics) = session.compile(text, file: "t")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        guard case .success(.run(let pipeline)) = session.execute(try #require(statements.first)) else {
            throw PipelineError(message: "not a pipeline: \(text)")
        }
        return pipeline
    }

    @Test("cancel from another thread stops a 100-million-value synchronous source inside start()")
    func cancelFromAnotherThread() throws {
        let p = try pipeline("from 1...100000000 | map { $0 * 2 }")
        // Values are counted, not kept: should the cancel not work, a hundred million of them would.
        let recorder = Recorder()
        let values = Atomic<Int>(0)
        let firstValue = DispatchSemaphore(value: 0)
        let run = p.makeRun(trace: false) { event in
            if case .value = event {
                if values.add(1, ordering: .relaxed).newValue == 1 { firstValue.signal() }
            } else {
                recorder.events.withLock { $0.append(describe(event)) }
            }
        }
        onThreadOfItsOwn {
            firstValue.wait()
            run.cancel()
        }
        run.start()  // returns once the cancel has stopped the source
        #expect(recorder.events.withLock { $0 } == ["subscribed", "cancelled"])
        #expect(values.load(ordering: .relaxed) < 100_000_000)
        #expect(run.isCancelled)
    }

    @Test("cancel from another thread stops a source whose values never reach the terminal (count)")
    func cancelAggregation() throws {
        let p = try pipeline("from 1...100000000 | count")
        let recorder = Recorder()
        let run = p.makeRun(trace: false) { event in recorder.events.withLock { $0.append(describe(event)) } }
        onThreadOfItsOwn {
            usleep(50_000)
            run.cancel()
        }
        run.start()
        #expect(recorder.events.withLock { $0 } == ["subscribed", "cancelled"])
    }

    @Test("cancel from inside onEvent stops the source at once, on the emitting thread")
    func cancelFromInsideEvent() throws {
        let p = try pipeline("from 1...100000000 | map { $0 * 10 }", clock: .virtual)
        let recorder = Recorder()
        let handle = Mutex<PipelineRun?>(nil)
        let run = p.makeRun(trace: false) { event in
            recorder.events.withLock { $0.append(describe(event)) }
            if event == .value(.int(30)) { handle.withLock { $0 }?.cancel() }
        }
        handle.withLock { $0 = run }
        run.start()
        #expect(recorder.events.withLock { $0 } == ["subscribed", "value 10", "value 20", "value 30", "cancelled"])
    }

    @Test("cancel before start: nothing is subscribed, cancelled is the only event; start twice runs once")
    func cancelBeforeStart() throws {
        let p = try pipeline("from [1, 2]", clock: .virtual)
        let recorder = Recorder()
        let run = p.makeRun(trace: false) { event in recorder.events.withLock { $0.append(describe(event)) } }
        run.cancel()
        run.start()
        run.cancel()
        #expect(recorder.events.withLock { $0 } == ["cancelled"])

        let again = Recorder()
        let twice = p.makeRun(trace: false) { event in again.events.withLock { $0.append(describe(event)) } }
        twice.start()
        twice.start()
        twice.cancel()
        #expect(again.events.withLock { $0 } == ["subscribed", "value 1", "value 2", "finished"])
    }

    @Test("the values terminal is cancelled through the same handle")
    func cancelValuesTerminal() async throws {
        let p = try pipeline("from 1...100000000 | values")
        let recorder = Recorder()
        let values = Atomic<Int>(0)
        let third = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let run = p.makeRun(trace: false) { event in
            if case .next = event {
                if values.add(1, ordering: .relaxed).newValue == 3 { third.signal() }
                return
            }
            recorder.events.withLock { $0.append(describe(event)) }
            switch event {
            case .finished, .failed, .cancelled: ended.signal()
            default: break
            }
        }
        onThreadOfItsOwn {
            third.wait()
            run.cancel()
        }
        run.start()  // the values loop runs in a task: this returns at once
        // Waiting here on the test's own thread would hold one of the cooperative pool's threads
        // (two on this machine) that the values task needs: under a parallel run it starved.
        // The values task's jobs also queue behind every test not yet started on that pool, so in
        // the whole parallel run it gets its turn only near the end: in ci33 (2026-12-03) the run
        // took 101 s, this wait's 60 s ran out at 101.6 s, and the async bridge tests finished at
        // 101.5 s. The bound is for a real hang, not for the pool's turn.
        let result = await offThePool { ended.wait(timeout: .now() + 600) }
        #expect(result == .success, "the run did not end")
        #expect(recorder.events.withLock { $0 } == ["subscribed", "cancelled"])
        #expect(values.load(ordering: .relaxed) >= 3)
    }
}
