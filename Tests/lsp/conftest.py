"""Starts the built `plumb lsp` for each test, as a real client (pytest-lsp over pygls) does."""

import os
import pathlib
import sys

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLUMB = os.environ.get("PLUMB_BIN", str(ROOT / ".build" / "debug" / "plumb"))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[PLUMB, "lsp"]))
async def client(lsp_client: LanguageClient):
    # Neovim 0.11's declared capabilities: pytest-lsp checks every result against them.
    params = types.InitializeParams(capabilities=pytest_lsp.client_capabilities("neovim@v0.11.0"))
    result = await lsp_client.initialize_session(params)
    assert result.capabilities.position_encoding in (None, types.PositionEncodingKind.Utf16)
    yield
    await lsp_client.shutdown_session()
    # `exit` after `shutdown` ends the server with status 0.
    assert lsp_client._server is not None and lsp_client._server.returncode == 0
