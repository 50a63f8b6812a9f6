import Testing
@testable import PipeLanguage

/// A misspelt operator's suggestion and fix-it by side (issue 39): after `values` the closest
/// async-side name; when only the other side's name is close, the fix-it crosses to it.
@Suite struct SideSuggestionTests {
    @Test("a typo after values suggests the async side's name")
    func asyncSide() {
        #expect(CrossingTests.error("from [1, 2] | values | 1️⃣adjacentPair", "E302") == "from [1, 2] | values | adjacentPairs")
        #expect(CrossingTests.error("from [1, 2] | values | 1️⃣removeDuplicate", "E302") == "from [1, 2] | values | removeDuplicates")
    }

    @Test("a typo of the other side's operator: the fix-it crosses, or says where it works right after the crossing")
    func otherSide() {
        #expect(
            CrossingTests.error("from [1, 2] | values | map { $0 } | 1️⃣retyr 2", "E302")
                == "from [1, 2] | values | map { $0 } | publisher | retry 2")
        #expect(CrossingTests.error("from [1, 2] | 1️⃣adjacentPair", "E302") == "from [1, 2] | values | adjacentPairs")
        #expect(CrossingTests.error("from [1, 2] | values | 1️⃣retyr 2", "E302") == nil)
        let d = diagnose("from [1, 2] | values | retyr 2").first
        #expect(d?.help == "did you mean 'retry'? it has no form on an async sequence: it works before the crossing")
        // On a publisher the publisher's names come first, as before.
        #expect(CrossingTests.error("from [1, 2] | 1️⃣retyr 2", "E302") == "from [1, 2] | retry 2")
    }
}
