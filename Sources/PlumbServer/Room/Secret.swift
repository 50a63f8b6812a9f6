#if canImport(Glibc)
import Glibc
#endif

/// Room tokens, teacher keys and learner secrets: random, and compared in constant time.
enum Secret {
    /// 128 random bits as 32 hex digits, from the system's generator.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
    }

    /// Whether `given` equals `expected`, in time that depends only on their lengths: every
    /// byte is compared, whatever the first difference (a byte-by-byte early exit would tell
    /// an attacker, through timing, how much of a guess is right).
    static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<b.count {
            difference |= (i < a.count ? a[i] : 0) ^ b[i]
        }
        return difference == 0
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Secret {
    /// Whether `text` is what `make` makes: 32 lowercase hex digits (and so safe in a file name,
    /// a URL and a terminal).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
