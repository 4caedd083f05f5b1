-- A second editor joins a session another client is running: it connects, waits for the
-- test to name the session (once the other client's reply has started streaming), loads
-- it, and follows the turn to its end. The summary holds the chat as it was right after
-- the load and as it was when the turn ended.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local h = dofile(here .. '/helpers.lua')

h.run(function()
  h.load_plugin()
  local workspace = h.env('AGENTD_NVIM_WORKSPACE')
  local agentd = require('agentd')
  agentd.setup({ cmd = { h.env('AGENTD_NVIM_NODE'), h.env('AGENTD_NVIM_CLI'), 'serve', '--stdio' } })

  local connected
  agentd.connect(function(ok, err)
    connected = { ok = ok, err = err }
  end)
  h.wait('the connection', function()
    return connected ~= nil
  end)
  assert(connected.ok, 'cannot connect: ' .. vim.inspect(connected.err))
  vim.fn.writefile({}, h.env('AGENTD_NVIM_READY'))

  local join_file = h.env('AGENTD_NVIM_JOIN')
  h.wait('the test to name the session', function()
    return vim.loop.fs_stat(join_file) ~= nil
  end, 20000)
  local id = vim.fn.readfile(join_file)[1]

  local loaded
  agentd.load_session(id, {
    cwd = workspace,
    on_done = function(s, err)
      loaded = s or err
    end,
  })
  h.wait('session/load', function()
    return loaded ~= nil
  end)
  local s = assert(agentd.current(), 'session/load failed: ' .. vim.inspect(loaded))
  local at_join = { lines = h.lines(s.chat.buf), running = s.running }

  h.wait('the running turn to end', function()
    return #s.endings > 0
  end, 20000)
  return { sessionId = s.id, atJoin = at_join, lines = h.lines(s.chat.buf), endings = s.endings }
end)
