import ReactiveAsyncTesting

/// A seeded generator (SplitMix64), so a failing generated case can be rerun from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A generated input diagram: at most one value per step, then `|` or `#` (or nothing: endless).
struct GeneratedDiagram {
    /// Values with their steps, in order.
    var values: [(step: Int, value: String)]
    /// The step of the end, and whether it fails; nil when the diagram never ends.
    var end: (step: Int, fails: Bool)?

    var marbles: String {
        var text = ""
        var step = 0
        for (at, value) in values {
            text += String(repeating: "-", count: at - step) + value
            step = at + 1
        }
        if let end { text += String(repeating: "-", count: end.step - step) + (end.fails ? "#" : "|") }
        return text
    }

    static func random(using generator: inout SplitMix64, length: Int = 16) -> GeneratedDiagram {
        let letters = Array("abcdefghijklmnopqrstuvwxyz").map(String.init)
        var values: [(step: Int, value: String)] = []
        for step in 0..<length where Int.random(in: 0..<3, using: &generator) == 0 {
            values.append((step, letters[values.count % letters.count]))
        }
        let endStep = length + Int.random(in: 0..<4, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return GeneratedDiagram(values: values, end: (endStep, true))
        case 1: return GeneratedDiagram(values: values, end: nil)
        default: return GeneratedDiagram(values: values, end: (endStep, false))
        }
    }
}

/// Draws events with their steps as a diagram (the model's output).
func draw(_ events: [(step: Int, event: MarbleNotation.Event)]) -> String {
    MarbleNotation.render(events)
}
