import Foundation
import PipeLanguage
import PlumbJSON

/// The `.pipe` language server's state and message handling, without any I/O: a message body in,
/// the messages to send out. `StdioServer` feeds it from standard input; tests call it directly.
///
/// Diagnostics are not computed on each change: a change marks its document, and
/// `publishPendingDiagnostics()` (called by the transport when no message is waiting) compiles each
/// marked document once, at its latest text. 1,000 changes in a burst cost one compile.
///
/// ```swift
/// let server = LanguageServer()
/// _ = server.handle(Data(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.utf8))
/// ```
public final class LanguageServer {
    /// A `:command` the shell knows, for completion, hover and the unknown-command error.
    public struct Command: Sendable {
        public var name: String
        public var aliases: [String]
        public var arguments: String
        public var summary: String
        public init(name: String, aliases: [String] = [], arguments: String, summary: String) {
            self.name = name
            self.aliases = aliases
            self.arguments = arguments
            self.summary = summary
        }
    }

    /// JSON-RPC and protocol error codes.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case serverNotInitialized = -32002
        /// The request was valid but cannot be done (a rename to a taken name, formatting a text with errors).
        case requestFailed = -32803
    }

    struct ResponseError: Error {
        var code: ErrorCode
        var message: String
    }

    /// An open document and, once compiled at its current text, what the compiler said.
    struct Entry {
        var document: TextDocument
        var analysis: Analysis?
    }

    let commands: [Command]
    /// Draws a catalog entry's example as a marble diagram (text lines), by name; nil: none.
    let exampleDiagram: (@Sendable (String) -> String?)?
    /// Diagrams drawn so far, by entry name (an example's run never changes).
    var diagrams: [String: String?] = [:]
    /// The shell's id for an unknown `:command` (its diagnostics are the shell's, not the language's).
    let unknownCommand: DiagnosticID?
    /// Where an id's explanation can be read (a URI), for a diagnostic's `codeDescription`.
    let explanationLink: (@Sendable (DiagnosticID) -> String?)?
    var entries: [String: Entry] = [:]
    /// Documents changed since their diagnostics were last published, in order of change.
    private var pending: [String] = []
    private var initialized = false
    private var shutdownRequested = false
    /// Set by the `exit` notification: 0 after `shutdown`, 1 without.
    public private(set) var exitCode: Int32?

    /// - Parameters:
    ///   - commands: The shell's `:commands` (completion after `:`, hover on a command line).
    ///   - unknownCommand: The id of the error for a `:command` not among them (none: not checked).
    ///   - exampleDiagram: Runs the example of the entry with this name and draws its marble
    ///     diagram (the shell's runner on the virtual clock), for hover; nil: hover shows none.
    ///   - explanationLink: The URI of an id's explanation (`file:///…/Diagnostics.md#e302-…`),
    ///     sent as the diagnostic's `codeDescription`; nil or a nil result: the code alone.
    public init(
        commands: [Command] = [], unknownCommand: DiagnosticID? = nil, exampleDiagram: (@Sendable (String) -> String?)? = nil,
        explanationLink: (@Sendable (DiagnosticID) -> String?)? = nil
    ) {
        self.explanationLink = explanationLink
        self.commands = commands
        self.unknownCommand = unknownCommand
        self.exampleDiagram = exampleDiagram
    }

    /// True when documents wait for their diagnostics.
    public var hasPendingDiagnostics: Bool { !pending.isEmpty }

    /// The exit code when the input ends without an `exit` notification.
    public var exitCodeAtEndOfInput: Int32 { shutdownRequested ? 0 : 1 }

    /// Handles one frame from the stream: the replies to send (a header that cannot be read gets
    /// a parse error with a null id).
    public func handle(_ frame: FrameDecoder.Frame) -> [JSON] {
        switch frame {
        case .body(let body): handle(body)
        case .badHeader(let reason): [Self.error(id: .null, .parseError, "cannot read the message header: \(reason)")]
        }
    }

    /// Handles one message body: the replies to send (a response to a request, nothing for most
    /// notifications, an error for a message that is not JSON-RPC).
    public func handle(_ body: Data) -> [JSON] {
        guard let message = JSON.decode(body) else {
            return [Self.error(id: .null, .parseError, "the message is not JSON")]
        }
        guard case .object = message else {
            return [Self.error(id: .null, .invalidRequest, "a message must be a JSON object")]
        }
        let id = message["id"]
        if let id, !Self.isValidID(id) {
            return [Self.error(id: .null, .invalidRequest, "'id' must be an integer or a string (such as 1 or \"a1\"), not \(Self.describe(id))")]
        }
        guard message["jsonrpc"]?.string == "2.0" else {
            return [Self.error(id: id ?? .null, .invalidRequest, "'jsonrpc' must be \"2.0\"")]
        }
        guard let method = message["method"]?.string else {
            // A response to a request of ours (the server sends none) is ignored.
            if id != nil, message["result"] != nil || message["error"] != nil { return [] }
            return [Self.error(id: id ?? .null, .invalidRequest, "a request needs a 'method' string")]
        }
        let params = message["params"] ?? .null
        if let id {
            do {
                return [["jsonrpc": "2.0", "id": id, "result": try request(method, params)]]
            } catch let error as ResponseError {
                return [Self.error(id: id, error.code, error.message)]
            } catch {
                return [Self.error(id: id, .invalidParams, "\(error)")]
            }
        }
        return notification(method, params)
    }

    /// A JSON value as a message names it: a number or string as written, other kinds by kind.
    private static func describe(_ value: JSON) -> String {
        switch value {
        case .double(let d): "\(d)"
        case .bool(let b): "\(b)"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        case .int(let i): "\(i)"
        case .string(let s): "\"\(s.prefix(40))\""
        }
    }

    private static func isValidID(_ id: JSON) -> Bool {
        switch id {
        case .int, .string: true
        default: false
        }
    }

    static func error(id: JSON, _ code: ErrorCode, _ message: String) -> JSON {
        ["jsonrpc": "2.0", "id": id, "error": ["code": .int(code.rawValue), "message": .string(message)]]
    }

    // MARK: Requests

    private func request(_ method: String, _ params: JSON) throws -> JSON {
        if method == "initialize" {
            guard !initialized else { throw ResponseError(code: .invalidRequest, message: "initialize was already sent") }
            initialized = true
            return Self.initializeResult
        }
        guard initialized else { throw ResponseError(code: .serverNotInitialized, message: "initialize must come first") }
        guard !shutdownRequested else { throw ResponseError(code: .invalidRequest, message: "the server is shutting down") }
        switch method {
        case "shutdown":
            shutdownRequested = true
            return .null
        case "textDocument/hover": return try hover(params)
        case "textDocument/completion": return try completion(params)
        case "textDocument/codeAction": return try codeActions(params)
        case "textDocument/documentSymbol": return try documentSymbols(params)
        case "textDocument/definition": return try definition(params)
        case "textDocument/inlayHint": return try inlayHints(params)
        case "textDocument/formatting": return try formatting(params)
        case "textDocument/rangeFormatting": return try rangeFormatting(params)
        case "textDocument/references": return try references(params)
        case "textDocument/prepareRename": return try prepareRename(params)
        case "textDocument/rename": return try rename(params)
        case "textDocument/signatureHelp": return try signatureHelp(params)
        default: throw ResponseError(code: .methodNotFound, message: "unknown method '\(method)'")
        }
    }

    static let initializeResult: JSON = [
        "capabilities": [
            "positionEncoding": "utf-16",
            "textDocumentSync": ["openClose": true, "change": 1],
            "hoverProvider": true,
            "completionProvider": ["triggerCharacters": ["|", ":"]],
            "codeActionProvider": ["codeActionKinds": ["quickfix"]],
            "documentSymbolProvider": true,
            "definitionProvider": true,
            "inlayHintProvider": true,
            "documentFormattingProvider": true,
            "documentRangeFormattingProvider": true,
            "referencesProvider": true,
            "renameProvider": ["prepareProvider": true],
            "signatureHelpProvider": ["triggerCharacters": [" "], "retriggerCharacters": [" "]],
        ],
        "serverInfo": ["name": "plumb"],
    ]

    // MARK: Notifications

    private func notification(_ method: String, _ params: JSON) -> [JSON] {
        if method == "exit" {
            exitCode = shutdownRequested ? 0 : 1
            return []
        }
        guard initialized, !shutdownRequested else { return [] }
        switch method {
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.string, let text = item["text"]?.string else { return [] }
            entries[uri] = Entry(document: TextDocument(uri: uri, version: item["version"]?.int ?? 0, text: text))
            markPending(uri)
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.string, var entry = entries[uri] else { return [] }
            for change in params["contentChanges"]?.array ?? [] {
                guard let text = change["text"]?.string else { continue }
                if let range = TextRange(change["range"]) {
                    entry.document.replace(from: range.start, to: range.end, with: text)
                } else {
                    entry.document.replace(with: text)
                }
            }
            if let version = params["textDocument"]?["version"]?.int { entry.document.version = version }
            entry.analysis = nil
            entries[uri] = entry
            markPending(uri)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.string, entries.removeValue(forKey: uri) != nil else { return [] }
            pending.removeAll { $0 == uri }
            return [Self.publish(uri: uri, version: nil, diagnostics: [])]
        default:
            break  // initialized, $/cancelRequest, $/setTrace and unknown notifications: nothing to do.
        }
        return []
    }

    private func markPending(_ uri: String) {
        if !pending.contains(uri) { pending.append(uri) }
    }

    /// `textDocument/publishDiagnostics` for every document changed since the last call, each
    /// compiled once at its latest text.
    public func publishPendingDiagnostics() -> [JSON] {
        let uris = pending
        pending = []
        return uris.compactMap { uri in
            guard let entry = entries[uri] else { return nil }
            let analysis = self.analysis(uri)
            return Self.publish(
                uri: uri, version: entry.document.version, diagnostics: analysis.diagnostics.map { diagnosticJSON($0, in: analysis, uri: uri) })
        }
    }

    static func publish(uri: String, version: Int?, diagnostics: [JSON]) -> JSON {
        var params: [String: JSON] = ["uri": .string(uri), "diagnostics": .array(diagnostics)]
        if let version { params["version"] = .int(version) }
        return ["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": .object(params)]
    }

    /// The document's analysis at its current text (compiled now if it changed).
    func analysis(_ uri: String) -> Analysis {
        if let analysis = entries[uri]?.analysis { return analysis }
        let analysis = Analysis(
            entries[uri]?.document ?? TextDocument(uri: uri, version: 0, text: ""), commands: unknownCommand == nil ? nil : commands,
            unknownCommand: unknownCommand)
        entries[uri]?.analysis = analysis
        return analysis
    }

    /// The open document a request names, or an InvalidParams error.
    func document(_ params: JSON) throws -> (uri: String, Analysis) {
        guard let uri = params["textDocument"]?["uri"]?.string else {
            throw ResponseError(code: .invalidParams, message: "missing textDocument.uri")
        }
        guard entries[uri] != nil else { throw ResponseError(code: .invalidParams, message: "'\(uri)' is not open") }
        return (uri, analysis(uri))
    }

    func position(_ params: JSON) throws -> Position {
        guard let position = Position(params["position"]) else {
            throw ResponseError(code: .invalidParams, message: "missing or bad position")
        }
        return position
    }
}
