-- Shared by the end-to-end scenario scripts (run by test/clients/neovim-client.test.ts as
-- `nvim --headless -u NONE -c 'luafile …'`): load the plugin from this checkout, stub
-- vim.ui.select, wait on conditions, and finish with a JSON summary and an exit code.
local M = {}

-- clients/neovim, from this file's own path.
M.root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')

function M.load_plugin()
  vim.opt.runtimepath:prepend(M.root)
  vim.cmd('runtime plugin/agentd.lua')
end

function M.env(name)
  local value = vim.env[name]
  assert(value and value ~= '', 'missing environment variable ' .. name)
  return value
end

--- Waits (running the event loop) until cond() holds; fails with `what` after timeout_ms.
function M.wait(what, cond, timeout_ms)
  local ok = vim.wait(timeout_ms or 10000, cond, 10)
  if not ok then
    error('timed out waiting for ' .. what, 2)
  end
end

-- vim.ui.select is answered by the next queued chooser (items, opts) → item; each call is
-- recorded with its prompt and item labels. Answers come back later, on the event loop,
-- as an asynchronous picker's would.
M.selects = {}
local choosers = {}

function M.next_choice(chooser)
  table.insert(choosers, chooser)
end

function M.stub_select()
  vim.ui.select = function(items, opts, on_choice)
    local labels = {}
    for _, item in ipairs(items) do
      table.insert(labels, opts.format_item and opts.format_item(item) or tostring(item))
    end
    local chooser = table.remove(choosers, 1)
    assert(chooser, 'unexpected vim.ui.select: ' .. tostring(opts.prompt))
    local choice = chooser(items)
    table.insert(M.selects, { prompt = opts.prompt, kind = opts.kind, items = labels })
    vim.defer_fn(function()
      on_choice(choice)
    end, 20)
  end
end

--- The first item whose field equals value.
function M.by(field, value)
  return function(items)
    for _, item in ipairs(items) do
      if item[field] == value then
        return item
      end
    end
    error(string.format('no item with %s = %s', field, tostring(value)))
  end
end

function M.lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

function M.has_line(buf, pattern)
  for _, line in ipairs(M.lines(buf)) do
    if line:find(pattern) then
      return true
    end
  end
  return false
end

--- Runs the scenario; writes the summary it returns to $AGENTD_NVIM_OUT and quits with 0,
--- or prints the error and quits with 1.
function M.run(scenario)
  local ok, result = xpcall(scenario, debug.traceback)
  if ok then
    local file = assert(io.open(M.env('AGENTD_NVIM_OUT'), 'w'))
    file:write(vim.json.encode(result))
    file:close()
    vim.cmd('qa!')
  else
    io.stderr:write('scenario failed: ' .. tostring(result) .. '\n')
    vim.cmd('cquit 1')
  end
end

return M
