import Testing

@testable import PlumbServer

@Suite struct SecretTests {
    @Test("a token matches only itself, whatever its length")
    func matching() {
        let token = Secret.make()
        #expect(token.count == 32)
        #expect(Secret.matches(token, token))
        #expect(!Secret.matches(nil, token))
        #expect(!Secret.matches("", token))
        #expect(!Secret.matches(String(token.dropLast()), token))
        #expect(!Secret.matches(token + "0", token))
        #expect(!Secret.matches(String(token.reversed()), token))
        #expect(Secret.make() != Secret.make())
    }
}
