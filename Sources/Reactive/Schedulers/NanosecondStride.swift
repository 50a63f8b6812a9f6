/// Arithmetic shared by the strides that count whole nanoseconds (an implementation detail of the
/// `Stride` types of `ImmediateScheduler`, `DispatchQueue` and `VirtualTimeScheduler`).
///
/// Integer and float literals mean seconds, as in Combine (`let s: Stride = 1.5`). Arithmetic
/// saturates instead of trapping: a shell must never crash on `interval 9999999999s`.
/// `stride * 3` multiplies by a count.
public protocol _NanosecondStride: SchedulerTimeIntervalConvertible, SignedNumeric, Comparable, Hashable, Sendable,
    ExpressibleByFloatLiteral, CustomStringConvertible
where IntegerLiteralType == Int, FloatLiteralType == Double {
    /// Creates a stride of `nanoseconds` nanoseconds.
    init(_nanoseconds: Int64)
    /// The stride in nanoseconds.
    var _nanoseconds: Int64 { get }
}

@usableFromInline
func _saturatingNanoseconds(_ value: Int, times factor: Int64) -> Int64 {
    let (product, overflow) = Int64(value).multipliedReportingOverflow(by: factor)
    if overflow { return value < 0 ? .min : .max }
    return product
}

/// `seconds` in whole nanoseconds (rounded, so that `0.29` is 290 ms on the dot); up to the
/// largest `Int64` as in Combine, and where Combine stops the process (out of range, infinite) it
/// saturates instead; NaN is 0.
@usableFromInline
func _saturatingNanoseconds(seconds: Double) -> Int64 {
    guard !seconds.isNaN else { return 0 }
    let ns = (seconds * 1e9).rounded()
    // 2^63 is the first Double past Int64.max; -2^63 is Int64.min itself.
    if ns >= 9_223_372_036_854_775_808.0 { return .max }
    if ns < -9_223_372_036_854_775_808.0 { return .min }
    return Int64(ns)
}

extension _NanosecondStride {
    @inlinable public static func seconds(_ s: Int) -> Self { Self(_nanoseconds: _saturatingNanoseconds(s, times: 1_000_000_000)) }
    @inlinable public static func seconds(_ s: Double) -> Self { Self(_nanoseconds: _saturatingNanoseconds(seconds: s)) }
    @inlinable public static func milliseconds(_ ms: Int) -> Self { Self(_nanoseconds: _saturatingNanoseconds(ms, times: 1_000_000)) }
    @inlinable public static func microseconds(_ us: Int) -> Self { Self(_nanoseconds: _saturatingNanoseconds(us, times: 1_000)) }
    @inlinable public static func nanoseconds(_ ns: Int) -> Self { Self(_nanoseconds: Int64(ns)) }

    /// A stride of `value` seconds.
    @inlinable public init(integerLiteral value: Int) { self = .seconds(value) }
    /// A stride of `value` seconds.
    @inlinable public init(floatLiteral value: Double) { self = .seconds(value) }
    /// A stride of `source` seconds, if it fits.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = Int64(exactly: source) else { return nil }
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return nil }
        self.init(_nanoseconds: ns)
    }

    @inlinable public static var zero: Self { Self(_nanoseconds: 0) }

    @inlinable
    public static func + (lhs: Self, rhs: Self) -> Self {
        let (sum, overflow) = lhs._nanoseconds.addingReportingOverflow(rhs._nanoseconds)
        return Self(_nanoseconds: overflow ? (rhs._nanoseconds > 0 ? .max : .min) : sum)
    }
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> Self {
        let (difference, overflow) = lhs._nanoseconds.subtractingReportingOverflow(rhs._nanoseconds)
        return Self(_nanoseconds: overflow ? (rhs._nanoseconds < 0 ? .max : .min) : difference)
    }
    /// Multiplies two durations as Combine does (`.seconds(2) * .seconds(3) == .seconds(6)`); prefer `stride * count`.
    @inlinable
    public static func * (lhs: Self, rhs: Self) -> Self {
        // As Combine: a stride times a stride multiplies the magnitudes as durations (seconds
        // times seconds), so in nanoseconds the product is scaled by 1e-9: `.seconds(2) *
        // .seconds(3) == .seconds(6)`. Saturates at the ends, never traps.
        Self(_nanoseconds: _saturatingNanoseconds(seconds: Double(lhs._nanoseconds) * Double(rhs._nanoseconds) * 1e-18))
    }
    /// The stride repeated `count` times.
    @inlinable
    public static func * (lhs: Self, rhs: Int) -> Self {
        let (product, overflow) = lhs._nanoseconds.multipliedReportingOverflow(by: Int64(rhs))
        return Self(_nanoseconds: overflow ? ((lhs._nanoseconds < 0) != (rhs < 0) ? .min : .max) : product)
    }
    /// The stride repeated `count` times.
    @inlinable public static func * (lhs: Int, rhs: Self) -> Self { rhs * lhs }
    /// The stride divided into `count` parts (rounded towards zero); dividing by zero gives zero.
    @inlinable
    public static func / (lhs: Self, rhs: Int) -> Self {
        guard rhs != 0, !(lhs._nanoseconds == .min && rhs == -1) else { return .zero }
        return Self(_nanoseconds: lhs._nanoseconds / Int64(rhs))
    }
    @inlinable public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
    @inlinable public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
    @inlinable public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
    @inlinable public static prefix func - (operand: Self) -> Self { .zero - operand }
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs._nanoseconds < rhs._nanoseconds }

    /// The stride in the largest unit that divides it: `30ms`, `2s`, `1500us`, `7ns`.
    public var description: String { _strideDescription(nanoseconds: _nanoseconds) }
}

/// `ns` nanoseconds in the largest unit that divides them: `30ms`, `2s`, `1500us`, `7ns`.
func _strideDescription(nanoseconds ns: Int64) -> String {
    if ns == 0 { return "0s" }
    if ns % 1_000_000_000 == 0 { return "\(ns / 1_000_000_000)s" }
    if ns % 1_000_000 == 0 { return "\(ns / 1_000_000)ms" }
    if ns % 1_000 == 0 { return "\(ns / 1_000)us" }
    return "\(ns)ns"
}
