extension Subscribers {
    /// How many values a subscriber asks for: a finite count or `.unlimited`.
    ///
    /// Arithmetic saturates and never traps: `.max(Int.max) + 10 == .unlimited`, subtraction floors
    /// at zero, and `.unlimited` minus anything stays `.unlimited`. A negative `.max(n)` is treated as
    /// `.none` (Combine traps; a shell must not).
    ///
    /// ```swift
    /// var demand = Subscribers.Demand.max(2)
    /// demand += 1          // .max(3)
    /// demand -= 5          // .none
    /// ```
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// `Int.max + 1` stands for `.unlimited`; every finite demand is at most `Int.max`.
        @usableFromInline let rawValue: UInt

        @inlinable init(rawValue: UInt) {
            self.rawValue = Swift.min(rawValue, Demand.unlimitedRaw)
        }

        @inlinable static var unlimitedRaw: UInt { UInt(Int.max) + 1 }

        /// As many values as the publisher can produce.
        @inlinable public static var unlimited: Demand { Demand(rawValue: unlimitedRaw) }
        /// No values (a no-op when requested).
        @inlinable public static var none: Demand { Demand(rawValue: 0) }

        /// A finite demand of `value` values; a negative `value` means `.none`.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            Demand(rawValue: value <= 0 ? 0 : UInt(value))
        }

        /// The finite count, or `nil` for `.unlimited`.
        @inlinable
        public var max: Int? { rawValue == Demand.unlimitedRaw ? nil : Int(rawValue) }

        /// Whether this is `.unlimited`.
        @inlinable
        public var isUnlimited: Bool { rawValue == Demand.unlimitedRaw }

        public var description: String { isUnlimited ? "unlimited" : "max(\(rawValue))" }

        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            if lhs.isUnlimited || rhs.isUnlimited { return .unlimited }
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow ? .unlimited : Demand(rawValue: sum)
        }
        @inlinable public static func + (lhs: Demand, rhs: Int) -> Demand { rhs < 0 ? lhs - Demand(rawValue: rhs.magnitude) : lhs + .max(rhs) }
        @inlinable public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
        @inlinable public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs.isUnlimited { return .unlimited }
            if rhs.isUnlimited { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }
        /// A negative `rhs` adds; a result past `Int.max` floors at `.none`, as Combine's does.
        @inlinable public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let count = lhs.max else { return .unlimited }
            let (difference, overflow) = count.subtractingReportingOverflow(rhs)
            return overflow ? .none : .max(difference)
        }
        @inlinable public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
        @inlinable public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs.isUnlimited { return rhs <= 0 ? .none : .unlimited }
            if rhs <= 0 { return .none }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow ? .unlimited : Demand(rawValue: product)
        }
        @inlinable public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        @inlinable public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        @inlinable public static func == (lhs: Demand, rhs: Int) -> Bool { lhs.max == rhs }
        @inlinable public static func != (lhs: Demand, rhs: Int) -> Bool { lhs.max != rhs }
        @inlinable public static func == (lhs: Int, rhs: Demand) -> Bool { rhs.max == lhs }
        @inlinable public static func != (lhs: Int, rhs: Demand) -> Bool { rhs.max != lhs }
        @inlinable public static func < (lhs: Demand, rhs: Int) -> Bool { rhs > 0 && lhs.rawValue < UInt(rhs) }
        @inlinable public static func > (lhs: Demand, rhs: Int) -> Bool { rhs < 0 || lhs.rawValue > UInt(rhs) }
        @inlinable public static func <= (lhs: Demand, rhs: Int) -> Bool { !(lhs > rhs) }
        @inlinable public static func >= (lhs: Demand, rhs: Int) -> Bool { !(lhs < rhs) }
        @inlinable public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
        @inlinable public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
        @inlinable public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
        @inlinable public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

        public init(from decoder: any Decoder) throws {
            rawValue = Swift.min(try decoder.singleValueContainer().decode(UInt.self), Demand.unlimitedRaw)
        }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
