import Synchronization

/// A unique identity for a subscriber or subscription, used in logs and for `Hashable` conformances.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let rawValue: UInt64

    /// Creates a new, never-before-used identifier.
    public init() {
        rawValue = identifierCounter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Creates the identifier of an object (its address).
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj).hashValue))
    }

    public var description: String { "0x" + String(rawValue, radix: 16) }
}

private let identifierCounter = Atomic<UInt64>(0)

/// A type with a `combineIdentifier`; classes get one from their address for free.
public protocol CustomCombineIdentifierConvertible {
    /// This instance's identity.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
