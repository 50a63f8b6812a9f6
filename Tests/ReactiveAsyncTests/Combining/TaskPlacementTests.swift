import Testing

@testable import ReactiveAsync

@Suite(.hangLimit) struct TaskPlacementTests {
    // Issue 42: operators' tasks start through TaskSpawning, so a harness's executor reaches them;
    // the per-base child tasks inherit the preference (SE-0417).
    @Test("merge, zip and combineLatest run their tasks on TaskSpawning's preferred executor")
    func preferredExecutor() async {
        for index in 0..<3 {
            let executor = JobCountingExecutor()
            let count = await TaskSpawning.$preferredExecutor.withValue(executor) { () -> Int in
                switch index {
                case 0: return await merge([1, 2].async, [3].async).collect().count
                case 1: return await zip([1, 2].async, [3, 4].async).collect().count
                default: return await combineLatest([1].async, [2].async).collect().count
                }
            }
            #expect(count == [3, 2, 1][index])
            #expect(executor.jobs.load(ordering: .relaxed) > 0)
        }
    }
}
