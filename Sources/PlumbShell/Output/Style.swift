/// ANSI styling that collapses to plain text when colour is off.
struct Style: Sendable {
    var enabled: Bool

    static let plain = Style(enabled: false)

    func dim(_ s: String) -> String { wrap(s, "2") }
    func bold(_ s: String) -> String { wrap(s, "1") }
    func red(_ s: String) -> String { wrap(s, "31") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func blue(_ s: String) -> String { wrap(s, "34") }
    func magenta(_ s: String) -> String { wrap(s, "35") }
    func cyan(_ s: String) -> String { wrap(s, "36") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}
