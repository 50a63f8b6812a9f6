/// What the public two- and three-base combiners (`zip` and `combineLatest`, each of two and of
/// three bases) share under their own names: the bases, the iteration of them under the
/// combiner's state machine, and the tuple a row of values (one per base, type-erased) stands for.
/// Each public sequence keeps the package's name, generic parameters, `init` and nested `Iterator`
/// and hands its work to one of these.
struct CombinerBases2<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>: Sendable
where Base1.Element: Sendable, Base2.Element: Sendable {
    let base1: Base1
    let base2: Base2

    /// An iteration of the bases under `machine`; nothing runs before its first `next()`.
    func iterate<Machine>(under machine: sending Machine) -> UpstreamIteratorHandle<Machine>
    where
        Machine.Input == any Sendable, Machine.Output: Sendable,
        Machine.Downstream == UnsafeContinuation<Machine.Output?, any Error>, Machine.Upstream == UnsafeContinuation<Bool, Never>
    {
        UpstreamIteratorHandle(machine, producers: [erasingProducer(base1), erasingProducer(base2)])
    }

    /// The tuple of a row: base 1's value, then base 2's.
    static func tuple(_ values: [any Sendable]) -> (Base1.Element, Base2.Element) {
        (element(values, 0), element(values, 1))
    }
}

/// ``CombinerBases2`` for three bases.
struct CombinerBases3<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>: Sendable
where Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable {
    let base1: Base1
    let base2: Base2
    let base3: Base3

    /// An iteration of the bases under `machine`; nothing runs before its first `next()`.
    func iterate<Machine>(under machine: sending Machine) -> UpstreamIteratorHandle<Machine>
    where
        Machine.Input == any Sendable, Machine.Output: Sendable,
        Machine.Downstream == UnsafeContinuation<Machine.Output?, any Error>, Machine.Upstream == UnsafeContinuation<Bool, Never>
    {
        UpstreamIteratorHandle(machine, producers: [erasingProducer(base1), erasingProducer(base2), erasingProducer(base3)])
    }

    /// The tuple of a row: the bases' values in order.
    static func tuple(_ values: [any Sendable]) -> (Base1.Element, Base2.Element, Base3.Element) {
        (element(values, 0), element(values, 1), element(values, 2))
    }
}
