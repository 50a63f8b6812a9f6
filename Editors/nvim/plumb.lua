-- `.pipe` files in Neovim: the filetype, highlighting (Editors/vim's syntax file), and
-- `plumb lsp` in the built-in LSP client (diagnostics with their ids, quick fixes, hover with the
-- example's marble diagram, completion with <C-x><C-o>, symbols, definition, references,
-- rename, formatting, signature help).
--
-- Copy this file to ~/.config/nvim/plugin/plumb.lua (or `:luafile` it). Works with Neovim 0.7
-- and later, with no other setup. If `plumb` is not on the PATH (Scripts/install puts it there),
-- set the command first:  vim.g.plumb_command = { "/path/to/plumb", "lsp" }
-- Highlighting uses Editors/vim when this file is still beside it in the repository, or the
-- folder in vim.g.plumb_vim_runtime (a copy of Editors/vim); else a few rules below.

local cmd = vim.g.plumb_command or { "plumb", "lsp" }

-- Editors/vim (ftdetect and syntax) on the runtimepath, so `syntax on` highlights `.pipe` files.
local here = debug.getinfo(1, "S").source:gsub("^@", "")
local vim_runtime = vim.g.plumb_vim_runtime or vim.fn.fnamemodify(here, ":p:h:h") .. "/vim"
local has_syntax = vim.fn.filereadable(vim_runtime .. "/syntax/pipe.vim") == 1
if has_syntax then vim.opt.runtimepath:prepend(vim_runtime) end
vim.cmd("syntax on")

-- Without the syntax file: comments, strings, durations, numbers, closure arguments, `let`.
local function fallback_syntax(bufnr)
  if has_syntax then return end
  vim.api.nvim_buf_call(bufnr, function()
    vim.cmd([[
      syntax match pipeComment "#.*$"
      syntax region pipeString start=+"+ skip=+\\\|\\"+ end=+"+ oneline
      syntax match pipeNumber "\<\d\+\(\.\d\+\)\=\(ns\|us\|ms\|s\|m\|h\)\=\>"
      syntax match pipeDollar "\$\d\+"
      syntax keyword pipeKeyword let expect
      highlight default link pipeComment Comment
      highlight default link pipeString String
      highlight default link pipeNumber Number
      highlight default link pipeDollar Identifier
      highlight default link pipeKeyword Keyword
    ]])
  end)
end

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = "*.pipe",
  callback = function(args) vim.bo[args.buf].filetype = "pipe" end,
})

-- Neovim 0.10 and later map K (hover) and the gr* keys themselves; older ones get these.
local function on_attach(_, bufnr)
  -- Completion with <C-x><C-o> (Neovim 0.7 to 0.9 set no omnifunc themselves).
  vim.bo[bufnr].omnifunc = "v:lua.vim.lsp.omnifunc"
  if vim.fn.has("nvim-0.10") == 1 then return end
  local function map(lhs, fn) vim.keymap.set("n", lhs, fn, { buffer = bufnr }) end
  map("K", vim.lsp.buf.hover)
  map("gd", vim.lsp.buf.definition)
  map("gra", vim.lsp.buf.code_action)
end

local client_id -- Neovim 0.7: one client, attached to every `.pipe` buffer
vim.api.nvim_create_autocmd("FileType", {
  pattern = "pipe",
  callback = function(args)
    fallback_syntax(args.buf)
    local config = { name = "plumb", cmd = cmd, root_dir = vim.fn.getcwd(), on_attach = on_attach }
    if vim.lsp.start then
      vim.lsp.start(config, { bufnr = args.buf })
    else
      client_id = client_id or vim.lsp.start_client(config)
      vim.lsp.buf_attach_client(args.buf, client_id)
    end
  end,
})
