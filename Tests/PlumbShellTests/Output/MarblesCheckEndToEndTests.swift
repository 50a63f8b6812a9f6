import Foundation
import Testing

/// `plumb test` with `expect marbles`: values, not spellings (the cases, end to end).
@Suite struct MarblesCheckEndToEndTests {
    @Test("'a' passes for a, '1' for 1; '10' fails for the String \"10\" and says only the kind differs; 27 h stays short")
    func valuesNotSpellings() throws {
        let same = try PlumbBinary.script("marble \"-a-b-|\"\nexpect marbles \"-'a'-b-|\"\njust 1\nexpect marbles \"('1'|)\"\n")
        let r1 = try PlumbBinary.run(["test", same])
        #expect(r1.status == 0, "\(r1)")
        let kinds = try PlumbBinary.script("just \"10\"\nexpect marbles \"('10'|)\"\n")
        let r2 = try PlumbBinary.run(["test", kinds])
        #expect(r2.status == 1 && r2.stdout.contains("expected Int 10, got String \"10\" (only the kind differs)"), "\(r2)")
        let long = try PlumbBinary.script("timer 27h\nexpect marbles \"-|\"\n")
        let r3 = try PlumbBinary.run(["test", long])
        #expect(r3.status == 1 && r3.stdout.contains("971,994 frames with no event"), "\(r3)")
        #expect(r3.stdout.utf8.count < 4_000, "\(r3.stdout.utf8.count) bytes")
    }
}
