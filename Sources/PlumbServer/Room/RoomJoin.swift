import Foundation
import PlumbJSON

/// How learners reach the room, for the teacher's page (`GET /api/teacher/join`): the learners'
/// URL, known once the server has its port (`announce`), drawn as a QR code in SVG (the same
/// libqrencode as the terminal's), and, when the room listens on loopback only, that phones and
/// other machines cannot reach it and the `plumb serve … --host` command that lets them.
final class RoomJoin: Sendable {
    struct Address: Sendable, Equatable {
        let url: String
        /// The server listens on this machine's loopback only.
        let loopback: Bool
        /// The command that serves the same room to the network.
        let openCommand: String
    }

    private let address = LockedState<Address?>(nil)

    /// Sets the learners' URL once the server listens.
    func announce(_ given: Address) {
        address.withLock { $0 = given }
    }

    /// What `GET /api/teacher/join` answers: `{"url": null}` before `announce`.
    var json: JSON {
        guard let given = address.withLock({ $0 }) else { return .object(["url": .null]) }
        var fields: [String: JSON] = ["url": .string(given.url), "loopback": .bool(given.loopback)]
        fields["svg"] = QRCode(given.url).map { .string($0.svg()) } ?? .null
        if given.loopback {
            fields["warning"] = .string(Self.loopbackWarning)
            fields["command"] = .string(given.openCommand)
        }
        return .object(fields)
    }

    /// What the page and the terminal say of a room on loopback.
    static let loopbackWarning =
        "the room listens on this machine's loopback only: phones and other machines cannot reach this URL"

    /// The terminal's lines for a room on loopback: the warning and the command that opens it.
    static func loopbackNote(openCommand: String) -> String {
        "note: \(loopbackWarning); to let them join, serve it on the network:\n  \(openCommand)\n"
    }
}
