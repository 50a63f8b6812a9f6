import Foundation

/// Arithmetic shared by the strides that count seconds as a `TimeInterval` (an implementation
/// detail of the `Stride` types of `RunLoop` and `OperationQueue`).
///
/// As in Combine, it is a `TimeInterval`'s arithmetic: nothing saturates (`.seconds(Int.max)` is
/// 9.2e18 seconds, `.seconds(.infinity)` is infinite), a stride times a stride multiplies the
/// seconds, and sums round as doubles do (`.nanoseconds(7) + .nanoseconds(12)` is
/// 1.8999999999999998e-08 seconds). Integer and float literals mean seconds.
public protocol _TimeIntervalStride: SchedulerTimeIntervalConvertible, SignedNumeric, Comparable, Hashable, Sendable,
    ExpressibleByFloatLiteral, CustomStringConvertible
where IntegerLiteralType == Int, FloatLiteralType == Double, Magnitude == TimeInterval {
    /// Creates a stride of `timeInterval` seconds.
    init(_ timeInterval: TimeInterval)
    /// The stride in seconds.
    var magnitude: TimeInterval { get set }
}

extension _TimeIntervalStride {
    @inlinable public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }
    @inlinable public static func seconds(_ s: Double) -> Self { Self(s) }
    @inlinable public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1_000) }
    @inlinable public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1_000_000) }
    @inlinable public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1_000_000_000) }

    /// A stride of `value` seconds.
    @inlinable public init(integerLiteral value: Int) { self.init(TimeInterval(value)) }
    /// A stride of `value` seconds.
    @inlinable public init(floatLiteral value: Double) { self.init(value) }
    /// A stride of `source` seconds, if a `TimeInterval` holds it exactly.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = TimeInterval(exactly: source) else { return nil }
        self.init(seconds)
    }

    @inlinable public static var zero: Self { Self(0) }

    @inlinable public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }
    @inlinable public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }
    /// Multiplies two durations as Combine does: the seconds are multiplied.
    @inlinable public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }
    /// The stride repeated `count` times.
    @inlinable public static func * (lhs: Self, rhs: Int) -> Self { Self(lhs.magnitude * TimeInterval(rhs)) }
    /// The stride repeated `count` times.
    @inlinable public static func * (lhs: Int, rhs: Self) -> Self { rhs * lhs }
    /// The stride divided into `count` parts; dividing by zero gives zero.
    @inlinable
    public static func / (lhs: Self, rhs: Int) -> Self {
        rhs == 0 ? .zero : Self(lhs.magnitude / TimeInterval(rhs))
    }
    @inlinable public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
    @inlinable public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
    @inlinable public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
    @inlinable public static prefix func - (operand: Self) -> Self { Self(-operand.magnitude) }
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }

    /// The stride in the largest unit that divides it (`30ms`, `2s`), or in seconds when it is
    /// not a whole number of nanoseconds or is beyond them (`1e+20s`).
    public var description: String {
        let ns = _saturatingNanoseconds(seconds: magnitude)
        guard magnitude.isFinite, ns != .max, ns != .min, Double(ns) / 1e9 == magnitude else { return "\(magnitude)s" }
        return _strideDescription(nanoseconds: ns)
    }
}
