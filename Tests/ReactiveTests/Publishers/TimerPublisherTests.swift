import Foundation
import Reactive
import ReactiveTestSupport
import Testing

/// Waits until a witness timer with the same 5 ms interval, on the same run loop, has ticked
/// `ticks` times: time measured in the loop's own ticks, not the wall clock, so a loaded machine
/// that delays the timer under test delays the witness too. `false` only when the witness hangs.
private func letTicksPass(_ ticks: Int = 5, mode: RunLoop.Mode = .default) async -> Bool {
    let witness = TestSubscriber<Date, Never>()
    Timer.publish(every: 0.005, on: .main, in: mode).autoconnect().subscribe(witness)
    defer { witness.cancel() }
    return await eventually { witness.values.count >= ticks }
}

@Suite("Timer.publish")
struct TimerPublisherTests {
    @Test("nothing is published before connect()")
    func notBeforeConnect() async throws {
        let timer = Timer.publish(every: 0.005, on: .main, in: .default)
        let sub = TestSubscriber<Date, Never>()
        timer.subscribe(sub)
        #expect(await letTicksPass())
        #expect(sub.values.isEmpty)
        #expect(sub.isSubscribed)
        sub.cancel()
    }

    @Test("autoconnect() emits increasing dates and never completes")
    func autoconnectEmitsDates() async {
        let start = Date()
        let sub = TestSubscriber<Date, Never>()
        Timer.publish(every: 0.005, tolerance: 0.001, on: .main, in: .common).autoconnect().subscribe(sub)
        #expect(await eventually { sub.values.count >= 3 })
        sub.cancel()
        let values = sub.values
        #expect(values.first.map { $0 >= start } == true)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(sub.completion == nil)
        #expect(sub.violations.isEmpty)
    }

    @Test("C08 never more dates than demanded; later demand gets later ticks")
    func demand() async throws {
        let sub = TestSubscriber<Date, Never>(initialDemand: .max(2))
        Timer.publish(every: 0.005, on: .main, in: .default).autoconnect().subscribe(sub)
        #expect(await eventually { sub.values.count == 2 })
        #expect(await letTicksPass())
        #expect(sub.values.count == 2)
        sub.request(.max(1))
        #expect(await eventually { sub.values.count == 3 })
        #expect(await letTicksPass())
        #expect(sub.values.count == 3)
        #expect(sub.violations.isEmpty)
        sub.cancel()
    }

    @Test("C18 cancelling the connection stops the ticks")
    func cancelConnection() async throws {
        let timer = Timer.publish(every: 0.005, on: .main, in: .default)
        let sub = TestSubscriber<Date, Never>()
        timer.subscribe(sub)
        let connection = timer.connect()
        // As in Combine, the connection is not an AnyCancellable: only cancel() stops the timer.
        #expect(!(connection is AnyCancellable))
        #expect(await eventually { sub.values.count >= 1 })
        connection.cancel()
        connection.cancel()
        // A tick already under way may still land; once the loop has ticked on, nothing more.
        #expect(await letTicksPass())
        let seen = sub.values.count
        #expect(await letTicksPass())
        #expect(sub.values.count == seen)
        sub.cancel()
    }

    @Test("C16 cancelling the subscriber stops its deliveries and releases it")
    func cancelSubscriber() async throws {
        let timer = Timer.publish(every: 0.005, on: .main, in: .default)
        weak var weakSub: TestSubscriber<Date, Never>?
        let connection = timer.connect()
        do {
            let sub = TestSubscriber<Date, Never>()
            weakSub = sub
            timer.subscribe(sub)
            #expect(await eventually { sub.values.count >= 1 })
            sub.cancel()
            // A tick the run loop's thread was delivering as cancel ran may still land (it began
            // before the cancel); after that one, nothing more.
            #expect(await letTicksPass())
            #expect(sub.eventsAfterCancel.count <= 1, "\(sub.eventsAfterCancel)")
            #expect(sub.violations.isEmpty)
        }
        #expect(weakSub == nil)
        connection.cancel()
    }

    @Test("every current subscriber gets each tick; the stored parameters are kept")
    func multicastAndParameters() async {
        let timer = Timer.publish(every: 0.005, tolerance: 0.002, on: .main, in: .default)
        #expect(timer.interval == 0.005)
        #expect(timer.tolerance == 0.002)
        #expect(timer.mode == .default)
        let a = TestSubscriber<Date, Never>()
        let b = TestSubscriber<Date, Never>()
        timer.subscribe(a)
        timer.subscribe(b)
        let connection = timer.connect()
        #expect(await eventually { a.values.count >= 2 && b.values.count >= 2 })
        connection.cancel()
        a.cancel()
        b.cancel()
        #expect(a.violations.isEmpty && b.violations.isEmpty)
    }
}
