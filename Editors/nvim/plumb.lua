-- `.pipe` files in Neovim: the filetype, and `plumb lsp` in the built-in LSP client
-- (diagnostics with their ids, quick fixes, hover with the example's marble diagram,
-- completion, symbols, go to definition).
--
-- Copy this file to ~/.config/nvim/plugin/plumb.lua (or `:luafile` it). Works with Neovim 0.7
-- and later. If `plumb` is not on the PATH (Scripts/install puts it there), set the command
-- first:  vim.g.plumb_command = { "/path/to/plumb", "lsp" }

local cmd = vim.g.plumb_command or { "plumb", "lsp" }

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = "*.pipe",
  callback = function(args) vim.bo[args.buf].filetype = "pipe" end,
})

-- Neovim 0.10 and later map K (hover) and the gr* keys themselves; older ones get these.
local function on_attach(_, bufnr)
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
    local config = { name = "plumb", cmd = cmd, root_dir = vim.fn.getcwd(), on_attach = on_attach }
    if vim.lsp.start then
      vim.lsp.start(config, { bufnr = args.buf })
    else
      client_id = client_id or vim.lsp.start_client(config)
      vim.lsp.buf_attach_client(args.buf, client_id)
    end
  end,
})
