"""End-to-end: pytest-lsp (a client nobody here wrote) drives the built `plumb lsp`.

What it checks: diagnostics on open (UTF-16 positions after é, €, an emoji; severity; the id as
code; help as related information), the quick fix and its edit, diagnostics cleared when fixed,
hover (operator and binding; the example's marble diagram), completion (argument labels too), document symbols, definition, inlay hints, 1,000 rapid
changes and a 1 MB document ending with the right diagnostics, JSON-RPC errors for bad messages,
and the exit codes of shutdown/exit.
"""

import asyncio
import json
import subprocess
import time

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound
from pytest_lsp import LanguageClient

from conftest import PLUMB

URI = "file:///tmp/plumb-lsp-test.pipe"
DEADLINE = 300.0  # an upper bound against hangs on a loaded machine, not a timing assertion


def open_document(client: LanguageClient, text: str, version: int = 1):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="pipe", version=version, text=text)
        )
    )


def change_document(client: LanguageClient, text: str, version: int):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def diagnostics_when(client: LanguageClient, predicate):
    """Waits (at most DEADLINE seconds) until the published diagnostics satisfy `predicate`."""
    deadline = time.monotonic() + DEADLINE
    while True:
        current = client.diagnostics.get(URI)
        if current is not None and predicate(current):
            return current
        if time.monotonic() > deadline:
            pytest.fail(f"no matching diagnostics in {DEADLINE}s; last: {current}")
        await asyncio.sleep(0.05)


def at(line: int, character: int) -> dict:
    return {"text_document": types.TextDocumentIdentifier(uri=URI), "position": types.Position(line=line, character=character)}


async def test_error_quick_fix_and_clearing(client: LanguageClient):
    text = 'let s = just "é€😀"\ns | filtr { $0 != "" }\n'
    open_document(client, 'just "é€😀" | retyr 3\n')
    # `just "` (6 units) + é, € (1 each) + 😀 (2) + `" | ` (4): retyr starts at UTF-16 unit 14.
    diagnostics = await diagnostics_when(client, lambda d: len(d) == 1)
    diagnostic = diagnostics[0]
    assert diagnostic.code == "E302"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.range == types.Range(start=types.Position(0, 14), end=types.Position(0, 19))
    assert diagnostic.related_information[0].message == "help: did you mean 'retry'?"

    change_document(client, text, 2)
    diagnostics = await diagnostics_when(client, lambda d: len(d) == 1 and d[0].range.start.line == 1)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    assert actions and actions[0].kind == types.CodeActionKind.QuickFix
    (edit,) = actions[0].edit.changes[URI]
    assert edit.new_text == "filter"
    assert edit.range == types.Range(start=types.Position(1, 4), end=types.Position(1, 9))
    lines = text.split("\n")
    lines[1] = lines[1][: edit.range.start.character] + edit.new_text + lines[1][edit.range.end.character :]
    change_document(client, "\n".join(lines), 3)
    assert len(await diagnostics_when(client, lambda d: len(d) == 0)) == 0


async def test_hover_on_an_operator_and_a_binding(client: LanguageClient):
    open_document(client, "let ticks = from [1, 2] | map { $0 * 2 }\nticks | scan 0 { $0 + $1 }\n")
    hover = await client.text_document_hover_async(types.HoverParams(**at(1, 10)))
    assert hover is not None and hover.contents.kind == types.MarkupKind.Markdown
    assert ".scan(_:_:)" in hover.contents.value and "```pipe" in hover.contents.value
    hover = await client.text_document_hover_async(types.HoverParams(**at(1, 1)))
    # `$0 * 2` can overflow, so the binding can fail.
    assert "`AnyPublisher<Int, Error>`" in hover.contents.value


async def test_hover_shows_the_examples_marble_diagram(client: LanguageClient):
    open_document(client, "just 5 | asyncMap flaky 2 | retry 3\n")
    hover = await client.text_document_hover_async(types.HoverParams(**at(0, 30)))
    assert hover is not None
    value = hover.contents.value
    diagram = value.split("The example on the virtual clock:\n```text\n", 1)[1].split("\n```", 1)[0]
    # Drawn by Plumb on the virtual clock: retry's example fails twice, so three attempts.
    assert "[2] retry 3" in diagram and "\u251c #1" in diagram and "\u2514 #3" in diagram
    assert "1 column = " in diagram and "#: failed[E506]: flaky failure 2 of 2 (#2)" in diagram


async def test_completion_of_argument_labels(client: LanguageClient):
    open_document(client, 'from [1] | flatMap maxP\njust 1 | timeout 1s customError: "late" \n')
    result = await client.text_document_completion_async(types.CompletionParams(**at(0, 23)))
    items = result.items if hasattr(result, "items") else result
    labels = [item for item in items if item.kind == types.CompletionItemKind.Field]
    assert [item.label for item in labels] == ["maxPublishers:"] and labels[0].insert_text == "maxPublishers: "
    result = await client.text_document_completion_async(types.CompletionParams(**at(1, 40)))
    items = result.items if hasattr(result, "items") else result
    assert not [item for item in items if item.kind == types.CompletionItemKind.Field]


async def test_completion(client: LanguageClient):
    open_document(client, "let ticks = just 1\nticks | fil\nju\n:tra\n")
    result = await client.text_document_completion_async(types.CompletionParams(**at(1, 11)))
    labels = {item.label for item in (result.items if hasattr(result, "items") else result)}
    assert {"filter", "map", "sink"} <= labels and "just" not in labels
    result = await client.text_document_completion_async(types.CompletionParams(**at(2, 2)))
    labels = {item.label for item in (result.items if hasattr(result, "items") else result)}
    assert {"just", "ticks", "let"} <= labels and "filter" not in labels
    result = await client.text_document_completion_async(types.CompletionParams(**at(3, 4)))
    labels = {item.label for item in (result.items if hasattr(result, "items") else result)}
    assert labels == {":trace"} or ":trace" in labels and all(label.startswith(":") for label in labels)


async def test_symbols_definition_and_inlay_hints(client: LanguageClient):
    open_document(client, "let d = from [1, 2]\nlet e = d | map { \"\\($0)\" }\ne | sink\n")
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert [(s.name, s.detail) for s in symbols] == [("d", "AnyPublisher<Int, Never>"), ("e", "AnyPublisher<String, Never>")]
    definition = await client.text_document_definition_async(types.DefinitionParams(**at(2, 0)))
    location = definition[0] if isinstance(definition, list) else definition
    assert location.range.start == types.Position(1, 4)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(start=types.Position(0, 0), end=types.Position(3, 0)),
        )
    )
    assert [h.label for h in hints] == ["→ Int", "→ Int", "→ String", "→ String"]


async def test_a_thousand_rapid_changes_end_with_the_last_diagnostics(client: LanguageClient):
    open_document(client, "just 0\n")
    for version in range(2, 1002):
        # Every other version has the error, each at its own column: only the last matches.
        change_document(client, f"just {version} | retyr 3\n" if version % 2 else f"just {version}\n", version)
    final_column = len("just 1001 | ")
    diagnostics = await diagnostics_when(client, lambda d: len(d) == 1 and d[0].range.start.character == final_column)
    assert diagnostics[0].code == "E302"
    # The last version's text is what was compiled: a request answered now sees it too.
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert symbols == []


async def test_a_one_megabyte_document(client: LanguageClient):
    line = "from [1, 2, 3] | map { $0 * 2 } | filter { $0 > 2 }\n"
    count = 1_048_576 // len(line) + 1
    open_document(client, line * count + 'just "€" | retyr 3\n')
    diagnostics = await diagnostics_when(client, lambda d: len(d) == 1)
    assert diagnostics[0].range.start == types.Position(count, 11)


async def test_an_unknown_request_gets_method_not_found(client: LanguageClient):
    with pytest.raises(JsonRpcMethodNotFound):
        await asyncio.wait_for(client.protocol.send_request_async("plumb/noSuchMethod", {}), DEADLINE)


def frame(message) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def run_raw(*messages, close: bool = True):
    """Sends frames to a fresh `plumb lsp`; its replies and exit code."""
    data = b"".join(m if isinstance(m, bytes) and m.startswith(b"garbage") else frame(m) for m in messages)
    done = subprocess.run([PLUMB, "lsp"], input=data, capture_output=True, timeout=DEADLINE)
    replies, rest = [], done.stdout
    while rest:
        header, _, rest = rest.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        replies.append(json.loads(rest[:length]))
        rest = rest[length:]
    return replies, done.returncode


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
SHUTDOWN = {"jsonrpc": "2.0", "id": 99, "method": "shutdown"}
EXIT = {"jsonrpc": "2.0", "method": "exit"}


def test_bad_messages_get_json_rpc_errors_and_the_server_goes_on():
    replies, code = run_raw(
        INITIALIZE,
        b"{not json",
        b"garbage header\r\n\r\n",
        b"[1, 2]",
        {"jsonrpc": "2.0", "id": 5, "method": "textDocument/noSuch"},
        SHUTDOWN,
        EXIT,
    )
    errors = [r["error"]["code"] for r in replies if "error" in r]
    assert errors == [-32700, -32700, -32600, -32601]
    assert replies[-1] == {"jsonrpc": "2.0", "id": 99, "result": None}
    assert code == 0


def test_exit_without_shutdown_is_status_1_and_so_is_the_end_of_input():
    assert run_raw(INITIALIZE, EXIT)[1] == 1
    assert run_raw(INITIALIZE)[1] == 1
    assert run_raw(INITIALIZE, SHUTDOWN)[1] == 0


async def test_an_unknown_command_is_the_shells_error(client: LanguageClient):
    open_document(client, "just 1\n:trcae on\n")
    diagnostics = await diagnostics_when(client, lambda d: len(d) == 1)
    assert diagnostics[0].code == "E701"
    assert diagnostics[0].range == types.Range(start=types.Position(1, 1), end=types.Position(1, 6))
