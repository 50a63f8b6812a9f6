import Foundation
import Reactive
import Testing

/// Wraps a value in a keyed container, as the reference suite's `KeyedWrapper` does, so that a
/// single-value encoding can be seen in JSON.
private struct Keyed<Value: Codable & Equatable>: Codable, Equatable {
    let value: Value
}

private func json<Value: Codable & Equatable>(_ value: Value) throws -> String {
    String(decoding: try JSONEncoder().encode(Keyed(value: value)), as: UTF8.self)
}

private func roundTrip<Value: Codable & Equatable>(_ value: Value) throws -> Value {
    try JSONDecoder().decode(Keyed<Value>.self, from: JSONEncoder().encode(Keyed(value: value))).value
}

// Issue 41 asks to settle three `DispatchQueue.SchedulerTimeType.Stride` facts against the
// recorded behaviour. The record is the reference suite's DispatchQueueSchedulerTests (OpenCombine,
// checked against Combine): testStrideCodable encodes `.nanoseconds(419872)` as
// `{"value":{"magnitude":419872}}` (the key is `magnitude`, not `_nanoseconds`);
// testStrideFromNumericValue has `Stride(exactly: 871 as UInt64)?.magnitude == 871` (nanoseconds)
// and `(2 as Stride).magnitude == 2_000_000_000` (a literal is seconds); testSchedulerTimeTypeDistance
// has the distance from 10 000 ns to `distantFuture` as -10001 ns and back as +10001 ns, which
// `Reactive` saturates instead (see SchedulerArithmeticTests and "Coming from Combine").
@Suite("Combine behaviour: scheduler strides are Codable as Combine's")
struct SchedulerCodableTests {
    private typealias DispatchStride = DispatchQueue.SchedulerTimeType.Stride
    private typealias ImmediateStride = ImmediateScheduler.SchedulerTimeType.Stride

    @Test("a DispatchQueue stride encodes its magnitude under the key \"magnitude\"")
    func dispatchStrideKey() throws {
        #expect(try json(DispatchStride.nanoseconds(419_872)) == #"{"value":{"magnitude":419872}}"#)
        #expect(try roundTrip(DispatchStride.nanoseconds(419_872)) == .nanoseconds(419_872))
    }

    @Test("a DispatchQueue stride: Stride(exactly: 2) is 2 ns, the literal 2 is 2 s")
    func dispatchStrideExactlyAndLiteral() {
        #expect(DispatchStride(exactly: 2)?.magnitude == 2)
        #expect((2 as DispatchStride).magnitude == 2_000_000_000)
        #expect(DispatchStride(exactly: UInt64.max) == nil)
    }

    // Combine declares `ImmediateScheduler.SchedulerTimeType.Stride` `Codable` (Apple's
    // documentation lists the conformance), with the same `magnitude` as a DispatchQueue stride.
    @Test("an ImmediateScheduler stride is Codable as its magnitude")
    func immediateStrideCodable() throws {
        #expect(try json(ImmediateStride.nanoseconds(42)) == #"{"value":{"magnitude":42}}"#)
        #expect(try roundTrip(ImmediateStride.seconds(3)) == .seconds(3))
    }
}
