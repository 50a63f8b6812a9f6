import Dispatch
import Foundation
import PipeLanguage
import PlumbJSON
import Synchronization

/// Runs a `LanguageServer` over standard input and output: a reader thread frames the input, the
/// calling thread handles messages in order and publishes diagnostics whenever no message waits
/// (so a burst of changes is compiled once, at its end).
public enum StdioServer {
    /// Serves until `exit` or the end of input.
    ///
    /// - Returns: The exit code: 0 after `shutdown` then `exit`, 1 when `exit` or the end of input
    ///   comes without `shutdown`.
    public static func run(
        commands: [LanguageServer.Command], unknownCommand: DiagnosticID? = nil,
        exampleDiagram: (@Sendable (String) -> String?)? = nil, explanationLink: (@Sendable (DiagnosticID) -> String?)? = nil,
        input: FileHandle = .standardInput,
        output: FileHandle = .standardOutput
    ) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let server = LanguageServer(
            commands: commands, unknownCommand: unknownCommand, exampleDiagram: exampleDiagram, explanationLink: explanationLink)
        let inbox = Inbox()
        let reader = Thread {
            var decoder = FrameDecoder()
            while true {
                let data = input.availableData
                if data.isEmpty {
                    inbox.push(nil)
                    return
                }
                decoder.append(data)
                while let frame = decoder.next() { inbox.push(frame) }
            }
        }
        reader.start()
        while true {
            for item in inbox.takeAll() {
                guard let frame = item else { return server.exitCodeAtEndOfInput }
                write(server.handle(frame), to: output)
                if let code = server.exitCode { return code }
            }
            if inbox.isEmpty, server.hasPendingDiagnostics {
                write(server.publishPendingDiagnostics(), to: output)
            }
        }
    }

    private static func write(_ messages: [JSON], to output: FileHandle) {
        for message in messages {
            try? output.write(contentsOf: FrameDecoder.frame(Data(message.encoded.utf8)))
        }
    }
}

/// Frames read from the input, waiting for the handling thread; nil marks the end of input.
private final class Inbox: Sendable {
    private let items = Mutex<[FrameDecoder.Frame?]>([])
    private let ready = DispatchSemaphore(value: 0)

    func push(_ item: FrameDecoder.Frame?) {
        items.withLock { $0.append(item) }
        ready.signal()
    }

    /// Waits for at least one item, then takes every item there is.
    func takeAll() -> [FrameDecoder.Frame?] {
        while true {
            ready.wait()
            let taken = items.withLock { items in
                let taken = items
                items.removeAll()
                return taken
            }
            if !taken.isEmpty { return taken }
        }
    }

    var isEmpty: Bool { items.withLock { $0.isEmpty } }
}
