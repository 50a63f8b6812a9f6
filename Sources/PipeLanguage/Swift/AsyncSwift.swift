/// The async side of `:swift`: the crossings by their names (`.values`; reference article 002's
/// stream bridge, written out as the `stream` helper; `.publisher` back) and each twin as the
/// standard library's or swift-async-algorithms' operator, so the code compiles with
/// `import ReactiveAsync` as with `import AsyncAlgorithms`.
enum AsyncSwift {
    /// A crossing or an async stage, over the code before it.
    static func translate(_ entry: CatalogEntry, _ b: SwiftStage) -> SwiftCode {
        b.translator.usesAsync = true
        switch entry.crossing {
        case .values?:
            // `AsyncPublisher`, or `AsyncThrowingPublisher` when upstream can fail.
            return sequence(b.then(".values"))
        case .stream?:
            b.needs(.stream)
            let policy: String
            switch b.overload {
            case 1: policy = ".bufferingNewest(\(b.value(1)))"
            case 2: policy = ".bufferingOldest(\(b.value(1)))"
            default: policy = ".unbounded"
            }
            return sequence(b.then(".stream(bufferingPolicy: \(policy))", fails: true))
        case .publisher?:
            return crossBack(b.upstream)
        case nil:
            guard let form = entry.async, let translate = form.translate ?? entry.swift else {
                return b.unfaithful("'\(entry.name)' has no form on an async sequence")
            }
            return sequence(translate(b))
        }
    }

    /// `sequence.publisher`: `Reactive`'s crossing back (an addition: Combine has none).
    static func crossBack(_ code: SwiftCode) -> SwiftCode {
        var back = code.then(".publisher")
        back.isSequence = false
        return back
    }

    static func sequence(_ code: SwiftCode) -> SwiftCode {
        var code = code
        code.isSequence = true
        return code
    }

    /// `merge`, `zip`, `combineLatest` on the async side: swift-async-algorithms' free functions
    /// over the sequence and the argument crossed with `.values`. `pairs`: the result is a tuple.
    static func combining(_ function: String, _ b: SwiftStage, pairs: Bool) -> SwiftCode {
        let other = b.publisher(0, expected: pairs ? nil : b.kind)
        let text = "\(function)(\(b.upstream.rendered()), \(other.rendered()).values)"
        let fails = b.upstream.fails || other.fails
        guard pairs else { return sequence(SwiftCode(text, kind: b.kind, fails: fails)) }
        var code = SwiftCode(text, kind: .array(b.upstream.kind), fails: fails)
        // The language pairs values as an array; Swift as a tuple, made an array when the kinds agree.
        if b.upstream.kind == other.kind { return sequence(code.then(".map { [$0, $1] }")) }
        code.pair = [b.upstream.kind, other.kind]
        return sequence(code)
    }
}
