import Testing
@testable import PipeLanguage

@Suite struct SmokeTests {
    @Test("a simple pipeline runs on virtual time")
    func simple() {
        #expect(run("from [1, 2, 3] | map { $0 * 10 } | filter { $0 > 10 }") == ["0 subscribed", "0 value 20", "0 value 30", "0 finished"])
    }

    @Test("asyncMap delay advances virtual time")
    func asyncDelay() {
        #expect(run("just 1 | asyncMap delay 100") == ["0 subscribed", "100 value 1", "100 finished"])
    }
}
