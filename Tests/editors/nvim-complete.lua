-- Run by Scripts/check-editors inside headless Neovim, after Editors/nvim/plumb.lua alone (no
-- other setup) and with Tests/editors/complete.pipe open: checks that the buffer is highlighted
-- with the pipe syntax, that omnifunc is the LSP's, and that omni-completion of `fil` offers
-- `filter`, which completes the word. Prints "ok: ..." lines; exit status 0 only when all held.
local t = dofile("Tests/editors/nvim-check.lua")
local check, wait = t.check, t.wait
t.start(function()
  check(vim.bo.syntax == "pipe" or vim.b.current_syntax == "pipe", "the buffer uses the pipe syntax")
  local group = vim.fn.synIDattr(vim.fn.synID(1, 1, 1), "name")
  check(group:match("^pipe") ~= nil, "the comment on line 1 is highlighted (" .. group .. ")")
end)
check(vim.bo.omnifunc == "v:lua.vim.lsp.omnifunc", "omnifunc is the LSP's (" .. vim.bo.omnifunc .. ")")

-- Line 2 is `just 1 | fil`: put the cursor after `fil` and run omnifunc as <C-x><C-o> does. The
-- completion menu needs insert mode, which a headless run cannot hold: report insert mode to
-- omnifunc's check, catch what it gives to complete(), then complete the word with its first match.
vim.api.nvim_win_set_cursor(0, { 2, 12 })
local captured
vim.fn.complete = function(column, items) captured = { column = column, items = items } end
vim.fn.mode = function() return "i" end
-- `v:lua.vim.lsp.omnifunc` names the Lua function vim.lsp.omnifunc.
local omnifunc = loadstring("return " .. vim.bo.omnifunc:gsub("^v:lua%.", ""))()
local start = omnifunc(1, "")
if start ~= -2 and start ~= -3 then
  local result = omnifunc(0, "fil")
  if type(result) == "table" and #result > 0 then captured = { column = start + 1, items = result } end
end
check(vim.wait(wait, function() return captured ~= nil end, 50), "omnifunc answered")
local word
for _, item in ipairs(captured.items) do
  local w = type(item) == "table" and (item.word or item.abbr) or item
  if w and w:sub(1, 3) == "fil" and not word then word = w end
end
check(word == "filter", "the first match for fil is filter (got " .. tostring(word) .. ")")
local line = vim.api.nvim_get_current_line()
vim.api.nvim_set_current_line(line:sub(1, captured.column - 1) .. word)
check(vim.api.nvim_get_current_line() == "just 1 | filter", "fil completes to filter")
vim.cmd("qall!")
