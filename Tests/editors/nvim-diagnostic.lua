-- Run by Scripts/check-editors inside headless Neovim, after Editors/nvim/plumb.lua and with
-- Tests/editors/filtr.pipe open: waits for plumb's diagnostics, then checks the one error's code,
-- position and source, asks for its quick fix and applies it, checks the text, that the
-- diagnostics clear, and that hover shows the example's diagram. Prints "ok: ..." lines; ends
-- with exit status 0 only when all held.
local t = dofile("Tests/editors/nvim-check.lua")
local check, wait = t.check, t.wait
t.start()

local got = vim.wait(wait, function() return #vim.diagnostic.get(0) > 0 end, 50)
check(got, "diagnostics published")
local diagnostics = vim.diagnostic.get(0)
check(#diagnostics == 1, "one diagnostic (got " .. #diagnostics .. ")")
local d = diagnostics[1]
check(d.code == "E302", "its code is E302 (got " .. tostring(d.code) .. ")")
check(d.lnum == 2 and d.col == 8 and d.end_col == 13, "it covers 'filtr' (line 3, columns 9-13)")
check(d.severity == vim.diagnostic.severity.ERROR, "it is an error")
check(d.source == "plumb", "its source is plumb")

-- The quick fix, as `vim.lsp.buf.code_action` asks for it.
local params = vim.lsp.util.make_range_params()
params.range = { start = { line = 2, character = 9 }, ["end"] = { line = 2, character = 9 } }
params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, 2) }
local responses = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, wait)
local action
for _, response in pairs(responses or {}) do
  for _, a in ipairs(response.result or {}) do action = action or a end
end
check(action ~= nil and action.title == "Replace 'filtr' with 'filter'", "the quick fix is offered")
vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
check(vim.api.nvim_buf_get_lines(0, 2, 3, false)[1] == "ticks | filter { $0 > 0 }", "the quick fix's edit applies")
local cleared = vim.wait(wait, function() return #vim.diagnostic.get(0) == 0 end, 50)
check(cleared, "the diagnostics clear once the text is fixed")

-- Hover on `filter`: the catalog entry with its example's marble diagram.
local hover = vim.lsp.buf_request_sync(0, "textDocument/hover",
  { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 2, character = 10 } }, wait)
local text = ""
for _, response in pairs(hover or {}) do
  if response.result then text = text .. response.result.contents.value end
end
check(text:find("Combine: `.filter(_:)", 1, true) ~= nil, "hover on filter shows its Combine equivalent")
check(text:find("1 column = ", 1, true) ~= nil and text:find("[1] filter", 1, true) ~= nil,
  "hover on filter shows its example's marble diagram")
vim.cmd("qall!")
