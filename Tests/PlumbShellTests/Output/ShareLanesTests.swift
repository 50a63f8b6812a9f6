import Foundation
import Testing

/// `share` drawn (issue 40): a shared binding's subscribers each get a lane under the stage that
/// names it, starting where they subscribed, so one upstream subscription seen by a late
/// subscriber looks different from two subscriptions at a glance.
@Suite struct ShareLanesTests {
    private func diagram(_ script: String) throws -> [String] {
        let path = try PlumbBinary.script(script)
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--marbles", path])
        #expect(result.status == 0, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  +") }
    }

    @Test("two subscribers of a shared interval: a lane each, the late one from 150 ms, its values where the first's are")
    func lanePerSubscriber() throws {
        let lines = try diagram("let t = interval 100ms | take 3 | share\nt | merge (timer 150ms | flatMap { t })\n")
        let first = try #require(lines.first { $0.contains("subscriber 1") }, "\(lines.joined(separator: "\n"))")
        let second = try #require(lines.first { $0.contains("subscriber 2") }, "\(lines.joined(separator: "\n"))")
        let stage = try #require(lines.first { $0.hasPrefix("[0] t ") }, "\(lines.joined(separator: "\n"))")
        // Both hang under the shared stage, right after it.
        let index = try #require(lines.firstIndex(of: stage))
        #expect(lines[index + 1] == first && lines[index + 2] == second, "\(lines.joined(separator: "\n"))")
        #expect(first.contains("├ subscriber 1") && second.contains("└ subscriber 2"), "\(lines.joined(separator: "\n"))")
        // 1 column = 20 ms: the first subscribes at 0, the second at 150 ms (column 7 or 8),
        // and both see 2 at 300 ms in the same column.
        // The last `2` of a lane is its value (the label `subscriber 2` comes before the lane).
        let column = { (line: String, mark: Character) -> Int? in line.lastIndex(of: mark).map { line.distance(from: line.startIndex, to: $0) } }
        let (start1, start2) = (try #require(column(first, "^")), try #require(column(second, "^")))
        #expect((7...8).contains(start2 - start1), "\(first)\n\(second)")
        #expect(column(first, "2") == column(second, "2"), "\(first)\n\(second)")
        #expect(!second.dropFirst(start2).contains("0"), "the late subscriber never sees 0: \(second)")
    }

    @Test("without share there are no subscriber lanes: each use is its own subscription")
    func noShareNoSubscribers() throws {
        let lines = try diagram("let t = interval 100ms | take 3\nt | merge (timer 150ms | flatMap { t })\n")
        #expect(!lines.contains { $0.contains("subscriber") }, "\(lines.joined(separator: "\n"))")
    }
}
