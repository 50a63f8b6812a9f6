import Reactive
import Synchronization

/// One parsed and checked statement of a `.pipe` text, ready for `Session.execute`.
public struct Statement: Sendable {
    /// Where the statement starts.
    public var location: SourceLocation
    /// The statement's text as written.
    public var text: String
    var ast: StatementAST
    var source: SourceText
    /// The statement as `compile` checked it: what `execute` performs.
    var statement: CheckedStatement
    /// The checked pipeline of a pipeline or `let` statement.
    var checked: CheckedPipeline? { statement.pipeline }

    /// True for `expect …` statements.
    public var isExpectation: Bool { if case .expect = statement { true } else { false } }
    /// True for `let` statements.
    public var isBinding: Bool { if case .bind = statement { true } else { false } }
}

/// A `let` binding: its checked pipeline, the bindings it names as they were when the `let` ran
/// (so `let d = d | map …` builds over the old `d`, never over itself), and for eager sources
/// (subject, currentValue, future) the one instance every use shares.
struct Binding: Sendable {
    var info: BindingInfo
    var pipeline: CheckedPipeline
    var source: SourceText
    var scope: [String: Binding]
    var hot: HotSource?
    /// How many times the binding's source (its first stage) was subscribed since the `let` ran.
    var subscriptions = SubscriptionCounter()
}

/// Counts subscriptions to one publisher, from any thread (`expect subscriptions`).
final class SubscriptionCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }

    /// `publisher`, counting each subscription to it here before it is passed on.
    func counting(_ publisher: ValuePublisher) -> ValuePublisher {
        ValueStream(
            Deferred { [self] () -> ValuePublisher in
                count.add(1, ordering: .relaxed)
                return publisher
            })
    }
}

/// An instance made when a binding is made: subjects, futures and the pipeline up to a `share`
/// are shared by every use.
struct HotSource: Sendable {
    var publisher: ValuePublisher
    var send: (@Sendable (Value) -> Void)?
    var complete: (@Sendable (PipelineError?) -> Void)?
    /// How many of the binding's leading stages `publisher` stands for.
    var stages: Int = 1
    /// `let c = channel`: the channel its sends go to and its uses read.
    var channel: ChannelBox? = nil
}

/// The names a `:load`ed script binds, with their kinds, known to the statements after the
/// `:load` line (`line`, in the loading text's numbering): what `Session.bindings(declaredBy:)`
/// finds, for `Session.compile`'s `loads`.
public struct LoadedBindings: Sendable {
    /// The line of the `:load`.
    public var line: Int
    var names: [String: BindingInfo]
    /// The loaded text as the language saw it, for rendering `diagnostics`.
    public var text = ""
    /// What checking the loaded text found (its errors and warnings, positioned in it).
    public var diagnostics: [Diagnostic] = []
    /// The loads of the loaded text, for their diagnostics.
    public var inner: [LoadedBindings] = []

    /// The bound names, sorted.
    public var boundNames: [String] { names.keys.sorted() }
}

/// A session: bindings and subjects live here. Not thread-safe: use it from one thread (the
/// shell's main thread); the pipelines it returns may run anywhere.
///
/// ```swift
/// let session = Session(runtime: Runtime(clock: .virtual))
/// let (statements, diagnostics) = session.compile("just 1 | map { $0 + 1 }", file: "<repl>")
/// if case .success(.run(let pipeline)) = session.execute(statements[0]) {
///     let c = pipeline.start(trace: false) { print($0) }
///     session.runtime.driveVirtualTime { false }
///     _ = c
/// }
/// ```
public final class Session {
    /// The clock and schedulers pipelines of this session run on.
    public let runtime: Runtime
    var bindings: [String: Binding] = [:]
    var bindingOrder: [String] = []

    /// Creates an empty session.
    public init(runtime: Runtime) {
        self.runtime = runtime
    }

    /// True when `text` is incomplete (ends with `|`, or an open `{ [ (`): read a continuation line.
    /// A string never spans lines, so one left open at the end is an error to report now, not a
    /// reason to swallow the next line.
    public static func needsContinuation(_ text: String) -> Bool {
        var lexer = Lexer(source: SourceText(text, file: ""))
        lexer.run()
        if lexer.openString { return false }
        if !lexer.open.isEmpty { return true }
        let significant = lexer.tokens.filter { $0.kind != .newline && $0.kind != .eof }
        return significant.last?.isPunct("|") == true
    }

    /// Parses and checks `text`; on errors returns them and changes nothing.
    ///
    /// Each statement is checked once, here, against the bindings the statements before it make;
    /// `execute` uses that check.
    ///
    /// - Parameters:
    ///   - text: One or more statements.
    ///   - file: The name diagnostics show (`<repl>`, a path).
    ///   - firstLine: The line number of the text's first line (for a REPL's running count).
    ///   - loads: What the scripts the text `:load`s bind, each known to the statements after its
    ///     `:load` line (the shell reads them: the language never sees a `:` line).
    /// - Returns: The statements without errors, and every diagnostic (errors and warnings) in order.
    public func compile(
        _ text: String, file: String, firstLine: Int = 1, loads: [LoadedBindings] = []
    ) -> (statements: [Statement], diagnostics: [Diagnostic]) {
        let checked = check(text, file: file, firstLine: firstLine, loads: loads)
        return (checked.statements, checked.diagnostics)
    }

    /// What `text` binds, as `compile` checks it after the session's bindings and `loads`:
    /// the names of a script that a `:load` line brings, for checking the text after that line.
    /// Nothing runs and the session does not change.
    public func bindings(declaredBy text: String, file: String, loads: [LoadedBindings] = [], atLine line: Int) -> LoadedBindings {
        let checked = check(text, file: file, firstLine: 1, loads: loads)
        return LoadedBindings(line: line, names: checked.declared, text: text, diagnostics: checked.diagnostics, inner: loads)
    }

    private func check(
        _ text: String, file: String, firstLine: Int, loads: [LoadedBindings]
    ) -> (statements: [Statement], diagnostics: [Diagnostic], declared: [String: BindingInfo]) {
        let source = SourceText(text, file: file, firstLine: firstLine)
        var parser = Parser(source: source)
        let asts = parser.parseProgram()
        var diagnostics = parser.diagnostics
        // A statement the lexer or parser already found wrong is not checked: its tokens are a
        // guess, and checking them would only add a second, misleading error (`just €`).
        let syntaxErrors = parser.diagnostics.filter { $0.severity == .error }.map(\.offset)
        var checker = Checker(source: source, bindings: bindings.mapValues(\.info))
        var pending = loads.sorted { $0.line < $1.line }[...]
        var statements: [Statement] = []
        // The names this text binds, its own `let`s and its loads' (not the session's).
        var declared = Set<String>()
        // A statement reaches up to where the next one starts (a dropped token is past its span).
        let ends = asts.dropFirst().map(\.span.offset) + [Int.max]
        for (ast, end) in zip(asts, ends) {
            // A loaded script's names are known after its `:load` line, as when the script runs.
            let line = source.location(of: ast.span.offset).line
            while let load = pending.first, load.line < line {
                checker.bindings.merge(load.names) { _, loaded in loaded }
                declared.formUnion(load.names.keys)
                pending.removeFirst()
            }
            if syntaxErrors.contains(where: { ast.span.offset <= $0 && $0 < end }) { continue }
            // As the parser does: past this many errors, more are noise (and cost time).
            if checker.diagnostics.count(where: { $0.severity == .error }) >= Parser.maxDiagnostics {
                checker.diagnostics.append(source.diagnostic(.tooManyErrors, at: ast.span))
                break
            }
            if let checked = checker.check(ast) {
                if case .bind(let name, _, _) = checked { declared.insert(name) }
                statements.append(
                    Statement(
                        location: source.location(of: ast.span.offset), text: source.text(ast.span), ast: ast, source: source,
                        statement: checked))
            }
        }
        for load in pending {
            checker.bindings.merge(load.names) { _, loaded in loaded }
            declared.formUnion(load.names.keys)
        }
        diagnostics += checker.diagnostics
        diagnostics.sort { $0.offset < $1.offset }
        return (statements, diagnostics, checker.bindings.filter { declared.contains($0.key) })
    }

    /// Performs one statement: binds, sends to a subject, or returns what the shell must do.
    /// Never throws for a bad statement: returns a Diagnostic (and changes nothing).
    ///
    /// It does not check again: `compile` did, in order. It only links the names the statement
    /// uses to the bindings the session has now; a name that is gone since (`:reset` between
    /// `compile` and `execute`) is a positioned error.
    public func execute(_ statement: Statement) -> Result<Action, Diagnostic> {
        let source = statement.source
        let location = statement.location
        let scope: [String: Binding]
        switch link(statement) {
        case .success(let linked): scope = linked
        case .failure(let d): return .failure(d)
        }
        switch statement.statement {
        case .run(let checked, let background):
            return .success(
                .run(
                    Pipeline(
                        text: statement.text, location: location, isBackground: background,
                        checked: checked, source: source, runtime: runtime, bindings: scope)))
        case .bind(let name, let checked, let info):
            let hot: HotSource?
            let subscriptions = SubscriptionCounter()
            do {
                hot = try BuildContext(runtime: runtime, bindings: scope, events: nil).hotSource(
                    for: checked, source: source, counting: subscriptions)
            } catch {
                return .failure(source.diagnostic(.bindingFailed(PipelineError.from(error)), at: checked.ast.stages[0].span))
            }
            if bindings[name] == nil { bindingOrder.append(name) }
            bindings[name] = Binding(info: info, pipeline: checked, source: source, scope: scope, hot: hot, subscriptions: subscriptions)
            return .success(.done)
        case .send(let subject, let span, let value):
            if let channel = bindings[subject]?.hot?.channel {
                // Checked against the session as it was; a finish may have run since.
                if channel.isFinished { return .failure(source.diagnostic(.channelSentAfterFinish(subject), at: span)) }
                return .success(.send(ChannelSend(name: subject, value: value, box: channel, runtime: runtime, source: source, span: span)))
            }
            guard let send = bindings[subject]?.hot?.send else { return .failure(source.diagnostic(.notSubjectAtRunTime(subject), at: span)) }
            send(value)
            return .success(.done)
        case .finish(let subject, let span):
            guard let complete = bindings[subject]?.hot?.complete else { return .failure(source.diagnostic(.notSubjectAtRunTime(subject), at: span)) }
            complete(nil)
            if bindings[subject]?.hot?.channel != nil {
                // Later statements are checked against a finished channel (E334), and on the
                // virtual clock its readers end at this instant, as they would at once on the real one.
                bindings[subject]?.info.isFinished = true
                runtime.settleVirtualTime()
            }
            return .success(.done)
        case .fail(let subject, let span, let message, let messageSpan):
            if bindings[subject]?.hot?.channel != nil { return .failure(source.diagnostic(.channelCannotFail(subject), at: span)) }
            guard let complete = bindings[subject]?.hot?.complete else { return .failure(source.diagnostic(.notSubjectAtRunTime(subject), at: span)) }
            complete(PipelineError(message: message, location: source.location(of: messageSpan.offset)))
            return .success(.done)
        case .expect(let expectation):
            return .success(.expect(expectation, location))
        }
    }

    /// The bindings a statement names, taken from the session now; an error at the first that is gone.
    private func link(_ statement: Statement) -> Result<[String: Binding], Diagnostic> {
        var scope: [String: Binding] = [:]
        for (name, span) in statement.checked?.bindingReferences ?? [] where scope[name] == nil {
            guard let binding = bindings[name] else { return .failure(statement.source.diagnostic(.bindingGone(name), at: span)) }
            scope[name] = binding
        }
        return .success(scope)
    }

    /// How many times binding `name`'s source was subscribed since its `let` ran (nil when there is
    /// no such binding): `expect subscriptions`.
    public func subscriptionCount(of name: String) -> Int? { bindings[name]?.subscriptions.value }

    /// How many pipelines read channel `name` now (a run subscribed to `c | …` until it ends);
    /// nil when `name` is no channel.
    public func channelReaders(of name: String) -> Int? { bindings[name]?.hot?.channel?.readers }

    /// The bound names, in the order they were first bound.
    public var bindingNames: [String] { bindingOrder }

    /// Forgets every binding (subjects are finished first so their subscribers complete).
    public func reset() {
        for name in bindingOrder { bindings[name]?.hot?.complete?(nil) }
        bindings = [:]
        bindingOrder = []
    }
}
