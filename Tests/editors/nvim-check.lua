-- Shared by the headless Neovim checks that Scripts/check-editors runs from the repository's root
-- (nvim-diagnostic.lua, nvim-complete.lua): "ok: ..." lines, a failure that ends Neovim with exit
-- status 1, the upper bound on every wait, and the two facts every check starts from (the buffer
-- is a .pipe buffer, plumb lsp attached to it).
local M = {}

function M.fail(message)
  io.stdout:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end

function M.check(condition, message)
  if not condition then M.fail(message) end
  io.stdout:write("ok: " .. message .. "\n")
end

-- Upper bounds against a hang on a loaded machine, not timing assertions.
M.wait = 120000

-- Checks the filetype, then waits for the language server; `between` runs in between (checks that
-- need no server).
function M.start(between)
  M.check(vim.bo.filetype == "pipe", "the .pipe file has filetype pipe")
  if between then between() end
  local attached = vim.wait(M.wait, function() return next(vim.lsp.buf_get_clients(0)) ~= nil end, 50)
  M.check(attached, "plumb lsp attached to the buffer")
end

return M
