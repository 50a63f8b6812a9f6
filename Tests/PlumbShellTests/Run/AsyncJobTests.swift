import Foundation
import Testing

/// A background job that iterates in a task (an async pipeline, `… | values | map … &`) in a
/// script on the virtual clock (issue 39): its task starts at the instant of its statement, as a
/// publisher job subscribes then, and what is due at the script's last instant happens before the
/// end cancels the jobs. Before, such a job never ran: the task waited on the virtual executor,
/// which nothing drained, and the end cancelled it with 0 values.
@Suite struct AsyncJobTests {
    private func run(_ script: String) throws -> [String] {
        let path = try PlumbBinary.script(script)
        let result = try PlumbBinary.run(["--clock", "virtual", "run", path])
        #expect(result.status == 0, "\(result)")
        // The job's lines, without their times.
        return result.stdout.split(separator: "\n").filter { $0.hasPrefix("[1] +") }.map {
            $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).joined(separator: " ")
        }
    }

    @Test("from [1, 2, 3] | values | map … & runs through at once, as its publisher twin does")
    func synchronousSourceThroughValues() throws {
        let async = try run("from [1, 2, 3] | values | map { $0 * 10 } &\njust 0\n")
        let publisher = try run("from [1, 2, 3] | map { $0 * 10 } &\njust 0\n")
        #expect(async == ["subscribed", "value 10", "value 20", "value 30", "finished 3 values in 0 ms"], "\(async)")
        #expect(publisher == async)
    }

    @Test("a subject behind values: the job takes the value sent while it waits; the next one, sent before it asks again, is dropped; then the finish")
    func subjectBehindValues() throws {
        // Combine's `values` asks for one value per next(), and a subject drops a value nobody
        // asked for (Publisher+Values.swift: "a value sent without demand, by a subject for
        // instance, is the publisher's to drop"): 2 comes while the consumer is still busy with 1.
        let lines = try run("let s = subject\ns | values | map { $0 * 10 } &\ns.send 1\ns.send 2\ns.finish\n")
        #expect(lines == ["subscribed", "value 10", "finished 1 value in 0 ms"], "\(lines)")
    }
}
