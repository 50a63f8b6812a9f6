import Testing
import PlumbDiagrams

@Suite struct MarbleTextTests {
    @Test("the issue's example prints exactly")
    func example() {
        let lines = MarbleText.render(.example, width: 80, color: false)
        let expected = [
            "                        0   2   4   ms×100",
            "[0] interval 100ms      ^-0-1-2-(3!)",
            "[1] take 4              ^-0-1-2-(3|)",
            "[2] map { $0 * 2 }      ^-0-2-4-(6|)",
            "[3] filter { $0 > 2 }   ^-----4-(6|)",
            "                        1 column = 50 ms",
        ]
        #expect(lines == expected, "Expected:\(joined(expected))Actual:\(joined(lines))")
    }
}
