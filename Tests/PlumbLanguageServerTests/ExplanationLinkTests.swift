import Foundation
import PipeLanguage
import Testing

@testable import PlumbLanguageServer

/// A diagnostic's code links to its explanation (`codeDescription`, LSP 3.16), so an editor shows
/// the id as a link a learner can follow (issue 40).
@Suite struct ExplanationLinkTests {
    @Test("the diagnostic's code carries a codeDescription with the explanation's address")
    func linked() throws {
        let client = TestClient(explanationLink: { "file:///docs/Diagnostics.md#\($0.code.lowercased())-\($0.name)" })
        client.open("just 1 | retyr 3")
        let diagnostic = try #require(client.publishedDiagnostics().first)
        #expect(diagnostic["code"] == "E302")
        #expect(diagnostic["codeDescription"]?["href"] == "file:///docs/Diagnostics.md#e302-unknown-operator")
    }

    @Test("without a place to link to, the code stands alone")
    func unlinked() throws {
        let client = TestClient()
        client.open("just 1 | retyr 3")
        let diagnostic = try #require(client.publishedDiagnostics().first)
        #expect(diagnostic["codeDescription"] == nil)
    }
}
