import Reactive
import Synchronization
import Testing

@testable import PipeLanguage

/// Issue 39's `channel` binding: `let c = channel` is swift-async-algorithms' `AsyncChannel`. The
/// facts come from the package's Channel guide (Sources/AsyncAlgorithms/AsyncAlgorithms.docc/
/// Guides/Channel.md): "Each value sent by the channel will await the consumption of that value
/// by iteration"; `finish()` "immediately resumes all the pending operations for every producers
/// and consumers" and "Further calls to `send(_:)` will immediately resume"; a cancelled `send`
/// resumes while "other operations from other tasks will remain active". So a send waits for a
/// reader, a send after finish would be lost (E334), and cancelling a send keeps the channel open.
@Suite struct ChannelTests {
    /// A session on the virtual clock with `setup` performed (its runs as background readers,
    /// whose events go to `events`), and the events so far.
    final class Bench {
        let session = Session(runtime: Runtime(clock: .virtual))
        let events = EventLog()
        var runs: [AnyCancellable] = []

        /// Performs `text`'s statements: lets, finishes, background readers (events recorded with
        /// their job number); returns the sends, not started.
        func perform(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [ChannelSend] {
            let (statements, diagnostics) = session.compile(text, file: "t")
            #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics.map(\.description))", sourceLocation: sourceLocation)
            var sends: [ChannelSend] = []
            for statement in statements {
                switch session.execute(statement) {
                case .failure(let d): Issue.record("\(d)", sourceLocation: sourceLocation)
                case .success(.run(let pipeline)):
                    let job = runs.count + 1
                    let (runtime, events) = (session.runtime, events)
                    let run = pipeline.start(trace: false) { event in
                        events.lines.withLock { $0.append("[\(job)] \(runtime.now().milliseconds) \(describe(event))") }
                    }
                    runs.append(run)
                case .success(.send(let send)): sends.append(send)
                case .success: break
                }
            }
            return sends
        }

        /// Starts `send` and drives the virtual clock until a reader took it or nothing more can happen.
        func drive(_ send: ChannelSend) {
            send.start {}
            session.runtime.driveVirtualTime { send.isDone }
        }
    }

    /// The readers' events, from any thread.
    final class EventLog: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    static func sides(_ text: String, in session: Session) throws -> [String] {
        let (statements, diagnostics) = session.compile(text, file: "t")
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics.map(\.description))")
        let checked = try #require(statements.last?.checked)
        return checked.stages.map { "\($0.stage.name):\($0.side == .async ? "async" : "publisher")" }
    }

    @Test("a pipeline naming a channel starts on the async side: stage names resolve there, publisher crosses back")
    func channelStartsAsync() throws {
        let bench = Bench()
        _ = bench.perform("let c = channel")
        #expect(
            try Self.sides("c | map { $0 * 2 } | adjacentPairs | publisher | scan 0 { $0 + 1 }", in: bench.session)
                == ["c:async", "map:async", "adjacentPairs:async", "publisher:publisher", "scan:publisher"])
        // `retry` has no form on an async sequence: E332, at it, as after `values`.
        let (_, diagnostics) = bench.session.compile("c | retry 2", file: "t")
        #expect(diagnostics.map(\.id.code) == ["E332"], "\(diagnostics.map(\.description))")
        #expect(diagnostics.first?.location.column == 5)
        // :type names the channel's sequence type.
        let types = try bench.session.types(of: "c | map { $0 * 2 }").get()
        #expect(types.stages.first?.type.asyncSequence == "AsyncChannel", "\(types)")
    }

    @Test("a send waits until a reader takes the value, and the reader's events show it; finish ends the reader")
    func sendToReader() throws {
        let bench = Bench()
        let none = bench.perform("let c = channel\nc | map { $0 * 10 } &")
        #expect(none.isEmpty)
        let sends = bench.perform("c.send 1\nc.send 2")
        #expect(sends.map(\.statementText) == ["c.send 1", "c.send 2"])
        for send in sends {
            #expect(send.readers == 1)
            bench.drive(send)
            #expect(send.wasTaken, "\(send.statementText) was not taken")
        }
        _ = bench.perform("c.finish")
        #expect(bench.events.all == ["[1] 0 subscribed", "[1] 0 value 10", "[1] 0 value 20", "[1] 0 finished"])
    }

    @Test("each value goes to one reader: two readers take turns (the package's next() is first come, first served)")
    func twoReaders() throws {
        let bench = Bench()
        _ = bench.perform("let c = channel\nc | map { $0 } &\nc | map { $0 } &")
        // Both readers are waiting in next() before the first send.
        bench.session.runtime.settleVirtualTime()
        for send in bench.perform("c.send 1\nc.send 2") {
            bench.drive(send)
            #expect(send.wasTaken)
        }
        let values = bench.events.all.filter { $0.contains("value") }
        #expect(values.count == 2, "\(values)")
        // One value each, never both to one.
        #expect(Set(values.map { $0.prefix(3) }).count == 2, "\(values)")
    }

    @Test("a send nobody reads is not taken: on the virtual clock nothing more can happen; cancelled, the channel stays open")
    func sendWithoutReader() throws {
        let bench = Bench()
        let send = try #require(bench.perform("let c = channel\nc.send 1").first)
        #expect(send.readers == 0)
        bench.drive(send)
        #expect(!send.isDone)
        send.cancel()
        bench.session.runtime.settleVirtualTime()
        #expect(send.isDone && !send.wasTaken)
        let diagnostic = send.notTaken(.noReader)
        #expect(diagnostic.id.code == "E411")
        #expect(diagnostic.location.line == 2 && diagnostic.location.column == 1)
        #expect(diagnostic.message == "nobody took 1 from channel 'c': no pipeline reads it")
        // The channel is still open: a reader started now takes the next send.
        _ = bench.perform("c | map { $0 + 1 } &")
        let next = try #require(bench.perform("c.send 5").first)
        bench.drive(next)
        #expect(next.wasTaken)
        #expect(bench.events.all.contains("[1] 0 value 6"))
    }

    @Test("a send after finish is E334 at the channel's name, checked in one text and across texts")
    func sendAfterFinish() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (_, inOne) = session.compile("let c = channel\nc.finish\nc.send 1", file: "t")
        #expect(inOne.map(\.id.code) == ["E334"], "\(inOne.map(\.description))")
        #expect(inOne.first?.location.line == 3 && inOne.first?.location.column == 1)
        #expect(inOne.first?.message == "channel 'c' is finished: a send after c.finish is dropped, nobody can take it")
        // Performed one text at a time, the session remembers the finish.
        for line in ["let c = channel", "c.finish"] {
            let statement = try #require(session.compile(line, file: "t").statements.first)
            guard case .success = session.execute(statement) else { throw CancellationError() }
        }
        #expect(session.compile("c.send 2", file: "t").diagnostics.map(\.id.code) == ["E334"])
        // A new channel under the same name takes sends again.
        #expect(session.compile("let c = channel\nc.send 2", file: "t").diagnostics.isEmpty)
    }

    @Test("a send checked before the finish ran and performed after it is E334 too (execute checks the channel)")
    func sendAfterFinishAtRunTime() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let bind = try #require(session.compile("let c = channel", file: "t").statements.first)
        _ = session.execute(bind)
        let (statements, diagnostics) = session.compile("c.finish\n", file: "a")
        let send = try #require(session.compile("c.send 1", file: "b").statements.first)
        #expect(diagnostics.isEmpty)
        _ = session.execute(try #require(statements.first))
        guard case .failure(let d) = session.execute(send) else {
            Issue.record("the send was performed")
            return
        }
        #expect(d.id.code == "E334")
    }

    @Test("a channel cannot fail (AsyncChannel's Failure is Never): E335; finish is its only end")
    func cannotFail() {
        let (_, diagnostics) = Session(runtime: Runtime(clock: .virtual)).compile("let c = channel\nc.fail \"down\"", file: "t")
        #expect(diagnostics.map(\.id.code) == ["E335"], "\(diagnostics.map(\.description))")
        #expect(diagnostics.first?.help == "end it with `c.finish`")
    }

    @Test("a channel is a binding that accepts send and finish; bindingSummaries says it is a channel")
    func summaries() throws {
        let bench = Bench()
        _ = bench.perform("let c = channel\nlet s = subject\nlet d = c | map { $0 }")
        let summaries = bench.session.bindingSummaries()
        #expect(summaries.map { "\($0.name) \($0.isSubject) \($0.isChannel)" } == ["c false true", "s true false", "d false false"])
        // `d` reads `c` but is no channel: a send to it is E313, as to any publisher.
        #expect(bench.session.compile("d.send 1", file: "t").diagnostics.map(\.id.code) == ["E313"])
    }

    @Test(":swift says why a channel's reader has no Swift form yet; the let itself is an AsyncChannel")
    func swift() throws {
        let bench = Bench()
        let binding = try bench.session.swiftTranslation(of: "let c = channel").get()
        #expect(binding.code.joined(separator: "\n").contains("AsyncChannel<Int>()"), "\(binding.code)")
        _ = bench.perform("let c = channel")
        let reader = try bench.session.swiftTranslation(of: "c | map { $0 }").get()
        #expect(!reader.isFaithful)
        #expect(reader.problems.first?.contains("'c' is a channel: :swift does not write a channel's readers yet") == true, "\(reader.problems)")
    }

    @Test("reset finishes a channel: its readers end")
    func resetFinishes() {
        let bench = Bench()
        _ = bench.perform("let c = channel\nc | sink &")
        bench.session.reset()
        bench.session.runtime.settleVirtualTime()
        #expect(bench.events.all == ["[1] 0 subscribed", "[1] 0 finished"])
    }

    /// Sends, readers and cancels on the real clock's threads at once: run under ThreadSanitizer
    /// too (`swift test --sanitize=thread --filter ChannelTests`).
    @Test(
        "stress, real clock: 200 sends, two readers, every fifth send cancelled at once: each value taken is read exactly once",
        .hangLimit)
    func stressRealClock() async throws {
        let session = Session(runtime: Runtime(clock: .real))
        let received = EventLog()
        let ended = Mutex(0)
        var runs: [AnyCancellable] = []
        let (setup, _) = session.compile("let c = channel\nc | map { $0 } &\nc | map { $0 } &", file: "t")
        for statement in setup {
            guard case .success(let action) = session.execute(statement) else { throw CancellationError() }
            if case .run(let pipeline) = action {
                runs.append(
                    pipeline.start(trace: false) { event in
                        switch event {
                        case .value(let v): received.lines.withLock { $0.append(v.description) }
                        case .finished, .failed, .cancelled: ended.withLock { $0 += 1 }
                        default: break
                        }
                    })
            }
        }
        var sends: [ChannelSend] = []
        for i in 0..<200 {
            let statement = try #require(session.compile("c.send \(i)", file: "t").statements.first)
            guard case .success(.send(let send)) = session.execute(statement) else { throw CancellationError() }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                send.start { done.resume() }
                if i % 5 == 0 { send.cancel() }
            }
            sends.append(send)
        }
        let finish = try #require(session.compile("c.finish", file: "t").statements.first)
        _ = session.execute(finish)
        while ended.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(2)) }
        let taken = sends.filter(\.wasTaken).map(\.valueText)
        #expect(received.all.sorted() == taken.sorted(), "\(received.all.count) read, \(taken.count) taken")
        #expect(Set(received.all).count == received.all.count, "a value was read twice")
        // The uncancelled sends all waited for a reader and were taken.
        #expect(sends.enumerated().allSatisfy { $0.offset % 5 == 0 || $0.element.wasTaken })
        withExtendedLifetime(runs) {}
    }
}
