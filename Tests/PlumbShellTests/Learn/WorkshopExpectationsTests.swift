import Foundation
import Testing

/// The two expectations the workshop's checks need beyond values and times: how many times a
/// binding's source was subscribed (share, retry) and when a future's work began (Future vs
/// Deferred). Combine's facts they check: `share()` subscribes its upstream once for every
/// subscriber (Apple, `Publishers.Share`: "a publisher that shares the output of an upstream
/// publisher with multiple subscribers"); `retry(n)` re-subscribes after each failure; `Future`
/// runs its closure when it is made and `Deferred` runs its factory per subscription (Apple's
/// Using Combine, "Future" and "Deferred").
@Suite struct WorkshopExpectationsTests {
    @Test("expect subscriptions counts a binding's source: once behind share, once per subscriber without, once per attempt under retry")
    func subscriptionsPass() throws {
        let script = try PlumbBinary.script(
            """
            let ticks = interval 100ms | take 3 | share
            ticks | merge (timer 150ms | flatMap { ticks })
            expect values [0, 1, 1, 2, 2]
            expect subscriptions ticks 1
            let plain = interval 100ms | take 3
            plain | merge (timer 150ms | flatMap { plain })
            expect subscriptions plain 2
            let request = just "ok" | asyncMap flaky 2
            request | retry 5
            expect subscriptions request 3
            let s = subject
            s | take 1 &
            s | take 1 &
            expect subscriptions s 2

            """)
        let result = try PlumbBinary.run(["--clock", "virtual", "test", script])
        #expect(result.status == 0, "\(result)")
    }

    @Test("a failing expect subscriptions says how many times the source was subscribed")
    func subscriptionsFail() throws {
        let script = try PlumbBinary.script(
            """
            let plain = interval 100ms | take 3
            plain | merge (timer 150ms | flatMap { plain })
            expect subscriptions plain 1

            """)
        let result = try PlumbBinary.run(["--clock", "virtual", "test", script])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("expected subscriptions plain 1, got plain's source subscribed 2 times"), "\(result)")
    }

    @Test("expect subscriptions names a binding: an unknown name is a positioned error")
    func subscriptionsUnknownBinding() throws {
        let result = try PlumbBinary.run(["--clock", "virtual", "check", try PlumbBinary.script("let ticks = interval 1s\nexpect subscriptions tiks 1\n")])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(":2:22: error[E318]: unknown binding 'tiks'"), "\(result)")
        #expect(result.stderr.contains("did you mean 'ticks'?"), "\(result)")
        let missing = try PlumbBinary.run(["check", try PlumbBinary.script("expect subscriptions\n")])
        #expect(missing.status == 65, "\(missing)")
        #expect(missing.stderr.contains("expect subscriptions needs a binding's name and a count"), "\(missing)")
    }

    @Test("expect started: a deferred future starts when subscribed; an eager one started before the run, and the failure says so")
    func started() throws {
        let pass = try PlumbBinary.script(
            """
            let fetch = deferred { future delay 200 value 42 }
            timer 300ms | flatMap { fetch }
            expect started 300ms
            expect time 500ms

            """)
        let passed = try PlumbBinary.run(["--clock", "virtual", "test", pass])
        #expect(passed.status == 0, "\(passed)")
        let eager = try PlumbBinary.script(
            """
            let fetch = future delay 500 value 42
            timer 300ms | flatMap { fetch }
            expect values [42]
            expect time 500ms
            expect started 300ms

            """)
        let failed = try PlumbBinary.run(["--clock", "virtual", "test", eager])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stdout.contains(":5: expected started 300 ms, got no future started during the run"), "\(failed)")
        let early = try PlumbBinary.script(
            """
            let fetch = deferred { future delay 200 value 42 }
            fetch
            expect started 300ms

            """)
        let wrong = try PlumbBinary.run(["--clock", "virtual", "test", early])
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.stdout.contains("expected started 300 ms, got started 0 ms"), "\(wrong)")
    }
}
