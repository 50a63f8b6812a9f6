"""pytest-lsp cases for formatting, range formatting, references, rename (and its refusals),
prepareRename, definition across a `:load`ed file, and signature help from the catalog."""

import pathlib
import tempfile

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from test_plumb_lsp import URI, at, diagnostics_when, open_document


def apply(text: str, edits) -> str:
    """Applies LSP text edits (ASCII text: characters are UTF-16 units) to `text`."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position):
        return offsets[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


def document() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=URI)


OPTIONS = types.FormattingOptions(tab_size=4, insert_spaces=True)


async def test_formatting_and_range_formatting(client: LanguageClient):
    text = "just 1|map{$0+1}   # one\n\n\n\nfrom [1,2]|\n  sink\n"
    open_document(client, text)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(text_document=document(), options=OPTIONS))
    assert apply(text, edits) == "just 1 | map { $0 + 1 } # one\n\nfrom [1, 2]\n    | sink\n"
    ranged = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=document(), options=OPTIONS, range=types.Range(start=types.Position(0, 0), end=types.Position(0, 16))
        )
    )
    assert apply(text, ranged) == "just 1 | map { $0 + 1 } # one\n\nfrom [1,2]|\n  sink\n"


async def test_formatting_a_document_with_errors_says_why(client: LanguageClient):
    open_document(client, "just 1 | map { $0 + }\n")
    with pytest.raises(JsonRpcException) as raised:
        await client.text_document_formatting_async(types.DocumentFormattingParams(text_document=document(), options=OPTIONS))
    assert "not formatted" in str(raised.value) and "1:" in str(raised.value)


async def test_references_rename_and_prepare_rename(client: LanguageClient):
    text = "let d = from [1, 2]\nlet e = d | map { $0 }\nd | sink\ne | sink\n"
    open_document(client, text)
    await diagnostics_when(client, lambda d: True)
    references = await client.text_document_references_async(
        types.ReferenceParams(**at(2, 0), context=types.ReferenceContext(include_declaration=True))
    )
    assert sorted((r.range.start.line, r.range.start.character) for r in references) == [(0, 4), (1, 8), (2, 0)]
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(**at(1, 8)))
    assert prepared.range == types.Range(start=types.Position(1, 8), end=types.Position(1, 9))
    edit = await client.text_document_rename_async(types.RenameParams(**at(0, 4), new_name="digits"))
    assert apply(text, edit.changes[URI]) == "let digits = from [1, 2]\nlet e = digits | map { $0 }\ndigits | sink\ne | sink\n"
    for taken, why in [("e", "taken"), ("map", "taken"), ("2x", "not a name"), ("let", "word of the language")]:
        with pytest.raises(JsonRpcException) as raised:
            await client.text_document_rename_async(types.RenameParams(**at(0, 4), new_name=taken))
        assert why in str(raised.value)


async def test_references_definition_and_rename_across_a_loaded_file(client: LanguageClient):
    with tempfile.TemporaryDirectory() as folder:
        lib = pathlib.Path(folder) / "lib.pipe"
        lib.write_text("let ticks = from [1, 2, 3]\nticks | sink\n")
        main = pathlib.Path(folder) / "main.pipe"
        text = ":load lib.pipe\nticks | map { $0 * 2 }\n"
        main.write_text(text)
        uri = main.as_uri()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="pipe", version=1, text=text))
        )
        position = {"text_document": types.TextDocumentIdentifier(uri=uri), "position": types.Position(1, 2)}
        definition = await client.text_document_definition_async(types.DefinitionParams(**position))
        location = definition[0] if isinstance(definition, list) else definition
        assert location.uri == lib.as_uri() and location.range.start == types.Position(0, 4)
        references = await client.text_document_references_async(
            types.ReferenceParams(**position, context=types.ReferenceContext(include_declaration=True))
        )
        assert sorted((r.uri == uri, r.range.start.line) for r in references) == [(False, 0), (False, 1), (True, 1)]
        edit = await client.text_document_rename_async(types.RenameParams(**position, new_name="numbers"))
        assert apply(text, edit.changes[uri]) == ":load lib.pipe\nnumbers | map { $0 * 2 }\n"
        assert apply(lib.read_text(), edit.changes[lib.as_uri()]) == "let numbers = from [1, 2, 3]\nnumbers | sink\n"


async def test_signature_help_inside_a_stages_arguments(client: LanguageClient):
    open_document(client, "from [1, 2] | scan 0 \n")
    help = await client.text_document_signature_help_async(types.SignatureHelpParams(**at(0, 21)))
    assert help is not None
    signature = help.signatures[help.active_signature or 0]
    assert signature.label.startswith("scan ")
    assert help.active_parameter == 1
    assert [p.label for p in signature.parameters] == ["INITIAL", "{ $0 + $1 }"]
