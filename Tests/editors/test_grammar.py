"""Editors/pipe.tmLanguage.json through a real TextMate engine (textmate-grammar-python, a port
of VS Code's tokenizer): every `.pipe` file under Examples/ tokenises with no unmatched region,
and sample lines get the expected scopes. Run by Scripts/check-editors.
"""

import json
import logging
import pathlib

import pytest
from textmate_grammar.parsers.base import LanguageParser

ROOT = pathlib.Path(__file__).resolve().parents[2]
GRAMMAR = json.loads((ROOT / "Editors" / "pipe.tmLanguage.json").read_text())
PARSER = LanguageParser(GRAMMAR)
EXAMPLES = sorted((ROOT / "Examples").rglob("*.pipe"))


class Unmatched(logging.Handler):
    """Collects what the engine skipped: text no pattern of the grammar matched."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def tokens(text):
    """(line, column, text, scopes) per token; a name with spaces holds several scopes."""
    handler = Unmatched()
    logger = logging.getLogger("textmate_grammar")
    logger.addHandler(handler)
    try:
        element = PARSER.parse_string(text)
    finally:
        logger.removeHandler(handler)
    result = []
    for (line, column), content, names in element.flatten() if element else []:
        scopes = [scope for name in names for scope in name.split()]
        result.append((line, column, content, scopes))
    return result, handler.messages


def test_there_are_examples():
    assert len(EXAMPLES) >= 30


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_tokenises_with_no_unmatched_region(path):
    text = path.read_text()
    whole, skipped = tokens(text)
    assert skipped == [], f"text no pattern matched: {skipped}"
    for line, column, content, scopes in whole:
        if content.strip():
            assert scopes[1:], f"{path.name}:{line + 1}:{column + 1}: {content!r} has no scope"
            assert not any(s.startswith("invalid") for s in scopes), f"{path.name}:{line + 1}: {content!r} {scopes}"
    # No region runs past its line: each line alone tokenises as it does inside the file.
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        alone, _ = tokens(line)
        inside = [(c, t, s) for (l, c, t, s) in whole if l == number]
        assert [(c, t, s) for (_, c, t, s) in alone] == inside, f"{path.name}:{number + 1}: {line}"


def scopes_at(text, word, occurrence=1):
    """The scopes of the token holding the `occurrence`-th `word` in one line of text."""
    index = -1
    for _ in range(occurrence):
        index = text.index(word, index + 1)
    result, skipped = tokens(text)
    assert skipped == []
    for _, column, content, scopes in result:
        if column <= index < column + len(content):
            return scopes
    raise AssertionError(f"no token at {word!r}")


SAMPLES = [
    ("# a comment", "a comment", "comment.line.number-sign.pipe"),
    ("just 1 | map { $0 * 2 } # doubled", "doubled", "comment.line.number-sign.pipe"),
    ('just "a # not a comment"', "not", "string.quoted.double.pipe"),
    ('just "x\\($0 + 1)y"', "$0", "meta.interpolation.pipe"),
    ('just "x\\($0 + 1)y"', "$0", "variable.language.closure-argument.pipe"),
    ('just "x\\($0 + 1)y"', "y", "string.quoted.double.pipe"),
    ('just "tab\\t"', "\\t", "constant.character.escape.pipe"),
    ("interval 100ms | take 3", "100ms", "constant.numeric.duration.pipe"),
    ("timer 1.5s", "1.5s", "constant.numeric.duration.pipe"),
    ("debounce 2h", "2h", "constant.numeric.duration.pipe"),
    ("just 42", "42", "constant.numeric.pipe"),
    ("just 2.5e3", "2.5e3", "constant.numeric.pipe"),
    ("from [1, 2] | scan 0 { $0 + $1 }", "$1", "variable.language.closure-argument.pipe"),
    ("from [1, 2] | scan 0 { $0 + $1 }", "from", "support.function.source.pipe"),
    ("from [1, 2] | scan 0 { $0 + $1 }", "scan", "support.function.operator.pipe"),
    ("just 1 | take 2 | sink", "take", "support.function.operator.pipe"),
    ("just 1 | sink", "sink", "support.function.operator.pipe"),
    ("let ticks = interval 1s", "let", "keyword.other.let.pipe"),
    ("let ticks = interval 1s", "ticks", "entity.name.variable.binding.pipe"),
    ("ticks | take 1", "ticks", "variable.other.pipe"),
    ("expect values [1, 2]", "expect", "keyword.other.expect.pipe"),
    ("expect values [1, 2]", "values", "keyword.other.expect.check.pipe"),
    ("from [1] | todo", "todo", "keyword.other.todo.pipe"),
    ("just 1 | map { $0 }", "|", "keyword.operator.pipeline.pipe"),
    ("just true | filter { $0 || false }", "||", "keyword.operator.logical.pipe"),
    ("s | map { $0 * 2 } | sink &", "&", "keyword.operator.background.pipe"),
    (":trace on", ":trace", "keyword.other.command.pipe"),
    ("  :load other.pipe", ":load", "keyword.other.command.pipe"),
    ('marble "-a-(b|)#"', "marble", "support.function.source.pipe"),
    ('marble "-a-(b|)#"', "-", "punctuation.separator.frame.marble.pipe"),
    ('marble "-x-(b|)#"', "x", "constant.other.marble.value.pipe"),
    ('marble "-a-(b|)#"', "(", "punctuation.definition.group.marble.pipe"),
    ('marble "-a-(b|)#"', "|", "keyword.control.finished.marble.pipe"),
    ('marble "-a-(b|)#"', "#", "keyword.control.failed.marble.pipe"),
    ("expect marbles \"-'aa'|\"", "'aa'", "constant.other.marble.value.quoted.pipe"),
    ("expect marbles \"-'aa'|\"", "marbles", "keyword.other.expect.check.pipe"),
    ('marble "-a|" frame: 10ms', "frame", "variable.parameter.label.pipe"),
    ("from [1] | flatMap maxPublishers: 1 { just $0 }", "maxPublishers", "variable.parameter.label.pipe"),
    ("s.send 1", "send", "support.function.subject.pipe"),
    ("s.send 1", "s", "variable.other.subject.pipe"),
    ("just nil | replaceNil 0", "nil", "constant.language.pipe"),
    ("from 1...5", "...", "keyword.operator.range.pipe"),
]


@pytest.mark.parametrize("text,word,scope", SAMPLES, ids=[f"{t} [{w}]" for t, w, _ in SAMPLES])
def test_sample_lines_get_the_expected_scopes(text, word, scope):
    assert scope in scopes_at(text, word), scopes_at(text, word)


def test_a_string_does_not_run_past_its_line():
    result, _ = tokens('just "open\njust 1')
    just = [scopes for line, _, content, scopes in result if line == 1 and content == "just"]
    assert just == [["source.pipe", "support.function.source.pipe"]]
