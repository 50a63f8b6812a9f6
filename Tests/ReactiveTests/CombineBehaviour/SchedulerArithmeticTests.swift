import Dispatch
import Foundation
import Reactive
import Testing

// Issue #20 item 12: scheduler time arithmetic as Combine does it. Every fact below comes from
// the OpenCombine project's scheduler tests (DispatchQueueSchedulerTests, RunLoopSchedulerTests,
// OperationQueueSchedulerTests), which its authors run against Apple's Combine on macOS
// (OPENCOMBINE_COMPATIBILITY_TEST); where Combine stops the process instead, `Reactive`
// saturates, as "Coming from Combine" explains.

@Suite("Combine behaviour: DispatchQueue time arithmetic")
struct DispatchTimeArithmeticTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    @Test("Stride * Stride multiplies the nanosecond magnitudes and scales by 1e-9: 2 s × 3 s = 6 s")
    func strideTimesStride() {
        #expect(Stride.seconds(2) * .seconds(3) == .seconds(6))
        #expect(Stride.milliseconds(500) * .seconds(4) == .seconds(2))
        // Combine: products below a nanosecond are 0.
        #expect((Stride.nanoseconds(18) * .microseconds(1)).magnitude == 0)
        #expect((Stride.microseconds(-3) * .nanoseconds(10)).magnitude == 0)
        var stride = Stride.nanoseconds(61346)
        stride *= .nanoseconds(0)
        #expect(stride.magnitude == 0)
        // Combine stops the process here (an Int conversion overflows); Reactive saturates.
        #expect(Stride.seconds(Int.max) * .seconds(Int.max) == .nanoseconds(Int.max))
    }

    @Test("advancing past the last representable dispatch time lands on distantFuture, and before the first on 1 ns")
    func advancedClamps() {
        let time = Time(DispatchTime(uptimeNanoseconds: 10_000))
        #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
        #expect(time.advanced(by: .seconds(.max)).dispatchTime == .distantFuture)
        #expect(time.advanced(by: .nanoseconds(431)) == Time(DispatchTime(uptimeNanoseconds: 10_431)))
        #expect(time.advanced(by: .nanoseconds(-220)) == Time(DispatchTime(uptimeNanoseconds: 9_780)))
        let beginning = Time(DispatchTime(uptimeNanoseconds: 1))
        #expect(beginning.advanced(by: .nanoseconds(-1_000)).dispatchTime == DispatchTime(uptimeNanoseconds: 1))
        #expect(beginning.advanced(by: .nanoseconds(.min)).dispatchTime == DispatchTime(uptimeNanoseconds: 1))
        let future = Time(.distantFuture)
        #expect(future.advanced(by: .seconds(-5)).dispatchTime == .distantFuture, "the distant future stays")
    }

    // Combine computes the distance on the raw values as signed integers, so the distance to
    // `distantFuture` (raw value UInt64.max) comes out negative: -10001 from 10 000 ns. A negative
    // distance to the future is a wrap-around, not a duration; Reactive saturates at Int.max.
    @Test("the distance to distantFuture saturates at Int.max (Combine wraps it to a negative number)")
    func distanceSaturates() {
        let time = Time(DispatchTime(uptimeNanoseconds: 10_000))
        let future = Time(.distantFuture)
        #expect(time.distance(to: future).magnitude == Int.max)
        #expect(future.distance(to: time).magnitude == -Int.max)
        #expect(future.distance(to: future).magnitude == 0)
        #expect(time.distance(to: Time(DispatchTime(uptimeNanoseconds: 10_431))) == .nanoseconds(431))
        #expect(Time(DispatchTime(uptimeNanoseconds: 10_431)).distance(to: time) == .nanoseconds(-431))
    }

    @Test("Stride(exactly:) counts nanoseconds, the stride's magnitude")
    func exactlyIsNanoseconds() {
        #expect(Stride(exactly: 871 as UInt64)?.magnitude == 871)
        #expect(Stride(exactly: UInt64.max) == nil)
    }

    @Test("seconds(Double) converts to nanoseconds up to Int.max and saturates only beyond")
    func secondsFromDouble() {
        #expect(Stride.seconds(1.2).magnitude == 1_200_000_000)
        #expect(Stride.seconds(12.756).magnitude == 12_756_000_000)
        #expect((1.2 as Stride).magnitude == 1_200_000_000)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000 - 1).magnitude == 9_223_372_035_854_776_320)
        // Combine stops the process for these (Int(Double) out of range); Reactive saturates.
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000).magnitude == .max)
        #expect(Stride.seconds(Double.infinity).magnitude == .max)
        #expect(Stride.seconds(-Double.infinity).magnitude == .min)
        #expect(Stride.seconds(Double.nan).magnitude == 0)
    }

    @Test("whole units clamp at Int.max and Int.min nanoseconds")
    func wholeUnitsClamp() {
        #expect(Stride.seconds(Int.max).magnitude == .max)
        #expect(Stride.milliseconds(.max).magnitude == .max)
        #expect(Stride.microseconds(.max).magnitude == .max)
        #expect(Stride.nanoseconds(.max).magnitude == .max)
        #expect(Stride.seconds(Int.min).magnitude == .min)
        #expect(Stride(.never).magnitude == .max)
        #expect(Stride(.seconds(.min)).magnitude == .min)
        #expect(Stride(.milliseconds(.max)).magnitude == .max)
        #expect(Stride(.microseconds(.min)).magnitude == .min)
    }
}

/// The two schedulers whose strides are seconds as a `TimeInterval`.
private func secondStrideFacts<S: SchedulerTimeIntervalConvertible & SignedNumeric & Comparable>(
    _: S.Type, seconds: (S) -> Double
) where S.Magnitude == Double {
    #expect(seconds(.seconds(2)) == 2)
    #expect(seconds(.seconds(2.2)) == 2.2)
    #expect(seconds(.milliseconds(2)) == 0.002)
    #expect(seconds(.microseconds(2)) == 2e-06)
    #expect(seconds(.nanoseconds(2)) == 2e-09)
    // No saturation: a TimeInterval holds these as they are.
    #expect(seconds(.seconds(Double.infinity)) == .infinity)
    #expect(seconds(.seconds(Int.max)) == 9.223372036854776e18)
    #expect(seconds(.milliseconds(.max)) == 9.223372036854776e15)
    #expect(seconds(.microseconds(.max)) == 9_223_372_036_854.775)
    #expect(seconds(.nanoseconds(.max)) == 9_223_372_036.854776)
    // Stride * Stride multiplies the seconds.
    #expect((S.nanoseconds(18) * .nanoseconds(1)).magnitude == 1.8e-17)
    #expect((S.nanoseconds(18) * .microseconds(1)).magnitude == 1.8e-14)
    #expect((S.microseconds(-3) * .nanoseconds(10)).magnitude == -3e-14)
    #expect((S.seconds(2) * .seconds(3)).magnitude == 6)
    // Sums are sums of TimeIntervals, rounding and all.
    #expect((S.nanoseconds(7) + .nanoseconds(12)).magnitude == 1.8999999999999998e-08)
    #expect((S.milliseconds(-12) + .seconds(7)).magnitude == 6.988)
    #expect((S.seconds(-12) - .milliseconds(7)).magnitude == -12.007)
    #expect((S.nanoseconds(7) - .nanoseconds(-12)).magnitude == 1.8999999999999998e-08)
    var stride = S.nanoseconds(15)
    stride *= .nanoseconds(2)
    #expect(stride.magnitude == 3e-17)
    #expect(S(exactly: 871 as UInt64)?.magnitude == 871)
    #expect(S(exactly: UInt64.max) == nil)
}

@Suite("Combine behaviour: RunLoop and OperationQueue time arithmetic")
struct DateTimeArithmeticTests {
    @Test("RunLoop strides are TimeIntervals: no saturation, products and sums of seconds")
    func runLoopStrides() {
        secondStrideFacts(RunLoop.SchedulerTimeType.Stride.self) { $0.timeInterval }
    }

    @Test("OperationQueue strides are TimeIntervals: no saturation, products and sums of seconds")
    func operationQueueStrides() {
        secondStrideFacts(OperationQueue.SchedulerTimeType.Stride.self) { $0.timeInterval }
    }

    @Test("dates advance by the whole stride and measure distances to distantFuture in seconds")
    func datesAdvance() {
        let time = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 10_000))
        #expect(time.advanced(by: .seconds(.max)).date == Date(timeIntervalSinceReferenceDate: 9.223372036854786e18))
        #expect(time.advanced(by: .nanoseconds(.max)).date == Date(timeIntervalSinceReferenceDate: 9_223_382_036.854776))
        let beginning = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 1))
        #expect(beginning.advanced(by: .nanoseconds(-1_000)).date == Date(timeIntervalSinceReferenceDate: 0.999999))
        #expect(beginning.advanced(by: .seconds(-1_000)).date == Date(timeIntervalSinceReferenceDate: -999))
        let early = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 10_000))
        #expect(early.distance(to: RunLoop.SchedulerTimeType(.distantFuture)).timeInterval == 64_092_201_200)
        #expect(RunLoop.SchedulerTimeType(.distantFuture).distance(to: early).timeInterval == -64_092_201_200)
    }
}
