-- What the Neovim scenarios of test/acp-editors share (loaded with dofile): reading their
-- environment, and running the scenario to a JSON summary and an exit code.
local M = {}

function M.env(name)
  local value = vim.env[name]
  assert(value and value ~= '', 'missing environment variable ' .. name)
  return value
end

--- Runs `scenario`; writes `summary` (with `error` set on failure, after `on_error(summary)`)
--- as JSON to the file $OUT_VAR names, then quits: 0, or 1 after printing "scenario failed: ...".
function M.run(scenario, summary, out_var, on_error)
  local ok, err = xpcall(scenario, debug.traceback)
  if not ok then
    summary.error = tostring(err)
    if on_error then
      on_error(summary)
    end
  end
  local file = assert(io.open(M.env(out_var), 'w'))
  file:write(vim.json.encode(summary))
  file:close()
  if ok then
    vim.cmd('qall!')
  else
    io.stderr:write('scenario failed: ' .. tostring(err) .. '\n')
    vim.cmd('cquit 1')
  end
end

return M
